#include "ListSourceChecks.hpp"
#include "WaxpeerSource.hpp"

using skinpulse::plugins::waxpeer::WaxpeerSource;
using skinpulse::sdk::QuotedPrice;
using namespace sources_lists_test;

class WaxpeerSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(WaxpeerSourceTest);
  CPPUNIT_TEST(readsThousandthsCountsAndImages);
  CPPUNIT_TEST(requestsTheMinifiedOffList);
  CPPUNIT_TEST(survivesHostileInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsThousandthsCountsAndImages() {
    const QuoteBatch batch =
        pollWith<WaxpeerSource>(MockHttp::ok(fixture("waxpeer_prices_shape.json")));
    CPPUNIT_ASSERT_MESSAGE(batch.status.message(), batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, batch.quotes.size());
    // min 41999 is $41.999 (thousandths), not $419.99 or $4.20.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4200}, redlineCents(batch));
    const auto& ak = batch.quotes[0];
    CPPUNIT_ASSERT(ak.price.form == QuotedPrice::Form::kMajor);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(41.999, ak.price.major, 1e-9);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{41}, ak.listings.value_or(-1));  // `count` = listings
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, ak.volume);
    CPPUNIT_ASSERT(!ak.kind.has_value());  // the instance's kind, default ask
    CPPUNIT_ASSERT(ak.image_url.rfind("https://community.akamai.steamstatic.com/", 0) == 0);
    CPPUNIT_ASSERT(!ak.observed_at.has_value());  // no time: the poll time
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1937.999, batch.quotes[1].price.major, 1e-9);
    CPPUNIT_ASSERT(batch.quotes[1].image_url.empty());  // "" is no picture
    CPPUNIT_ASSERT_EQUAL(std::string("USD"), batch.quotes[2].currency);
  }

  void requestsTheMinifiedOffList() {
    MockHost host;
    host.settings = {{"url", "https://api.waxpeer.test/"}};
    WaxpeerSource source(host);
    CPPUNIT_ASSERT_EQUAL(std::string("https://api.waxpeer.test/v1/prices?game=csgo&minified=0"),
                         source.requestUrl());
    const QuoteBatch off =
        pollWith<WaxpeerSource>(MockHttp::ok(R"({"success":false,"msg":"wrong game"})"));
    CPPUNIT_ASSERT(off.status.code() == Status::Code::kMalformed);
  }

  void survivesHostileInput() {
    checkHostileInputs<WaxpeerSource>(
        [](const std::string& rows) { return R"({"success":true,"items":)" + rows + "}"; },
        [](const std::string& name, const std::string& price) {
          return R"({"name":")" + name + R"(","count":"many","min":)" + price + R"(,"img":7})";
        });
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(WaxpeerSourceTest);
