#include "BitskinsSource.hpp"
#include "ListSourceChecks.hpp"

using skinpulse::plugins::bitskins::BitskinsSource;
using namespace sources_lists_test;

class BitskinsSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BitskinsSourceTest);
  CPPUNIT_TEST(readsThousandthsAndQuantity);
  CPPUNIT_TEST(survivesHostileInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsThousandthsAndQuantity() {
    MockHost host;
    host.settings = {{"url", "https://api.bitskins.test"}};
    BitskinsSource source(host);
    CPPUNIT_ASSERT_EQUAL(std::string("https://api.bitskins.test/market/insell/730"),
                         source.requestUrl());
    const QuoteBatch batch =
        pollWith<BitskinsSource>(MockHttp::ok(fixture("bitskins_insell_730_shape.json")));
    CPPUNIT_ASSERT_MESSAGE(batch.status.message(), batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, batch.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3912}, redlineCents(batch));  // price_min 39120 = $39.12
    CPPUNIT_ASSERT_EQUAL(std::int64_t{57}, batch.quotes[0].listings.value_or(-1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, batch.quotes[0].volume);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(905.5, batch.quotes[2].price.major, 1e-9);
  }

  void survivesHostileInput() {
    checkHostileInputs<BitskinsSource>(
        [](const std::string& rows) { return R"({"list":)" + rows + "}"; },
        [](const std::string& name, const std::string& price) {
          return R"({"skin_id":1,"name":")" + name + R"(","price_min":)" + price +
                 R"(,"quantity":18446744073709551616})";
        });
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BitskinsSourceTest);
