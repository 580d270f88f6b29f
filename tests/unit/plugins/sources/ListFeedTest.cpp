// The shared list reader (plugins/sources/common/ListFeed.hpp, FeedMapping.hpp): the values
// feeds send, as the plugins read them.
#include "FeedMapping.hpp"
#include "ListFeed.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using namespace skinpulse::plugins::support;
using QuotedPrice = skinpulse::sdk::QuotedPrice;

class ListFeedTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ListFeedTest);
  CPPUNIT_TEST(readsNumbersAndDecimalStrings);
  CPPUNIT_TEST(countsAndTimes);
  CPPUNIT_TEST(pointersAndEntries);
  CPPUNIT_TEST(limitsDepthAndSize);
  CPPUNIT_TEST(unholdableNumbersCostOnlyTheirRow);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsNumbersAndDecimalStrings() {
    ListFeed feed;
    CPPUNIT_ASSERT(!feed.parse(R"({"a":"0.512","b":937999,"c":1234,"d":12.5,"e":"$1,234.56",)"
                               R"("f":true,"g":" ","h":"12"})",
                               1000));
    const FeedValue root = feed.root();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.512, root.member("a").price(PriceUnit::kMajor)->major, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(937.999, root.member("b").price(PriceUnit::kMilli)->major, 1e-12);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1234}, root.member("c").price(PriceUnit::kCents)->cents);
    CPPUNIT_ASSERT(!root.member("d").price(PriceUnit::kCents));  // fractional cents
    CPPUNIT_ASSERT(root.member("e").price(PriceUnit::kMajor)->form == QuotedPrice::Form::kText);
    CPPUNIT_ASSERT(!root.member("f").price(PriceUnit::kMajor));
    CPPUNIT_ASSERT(!root.member("g").price(PriceUnit::kMajor));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{12}, root.member("h").price(PriceUnit::kCents)->cents);
    CPPUNIT_ASSERT(root.member("missing").absent());
  }

  void countsAndTimes() {
    ListFeed feed;
    CPPUNIT_ASSERT(!feed.parse(R"(["5312",7,7.0,-1,"7x",18446744073709551615,)"
                               R"("2026-11-22T10:15:00Z",1732440000.9,"1732440000",true])",
                               1000));
    std::vector<FeedValue> v;
    feed.root().forEachEntry([&](const std::string_view*, FeedValue value) { v.push_back(value); });
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, v.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5312}, *v[0].count());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, *v[1].count());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, *v[2].count());
    CPPUNIT_ASSERT(!v[3].count() && !v[4].count() && !v[5].count() && !v[9].count());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1795342500}, *v[6].time());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1732440000}, *v[7].time());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1732440000}, *v[8].time());
    CPPUNIT_ASSERT(!v[9].time());
  }

  void pointersAndEntries() {
    ListFeed feed;
    CPPUNIT_ASSERT(
        !feed.parse(R"({"response":{"items":[{"a/b":1},{"x":2}]},"k":{"n1":1,"n2":2}})", 1000));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1},
                         *feed.root().at({"response", "items", "0", "a/b"}).integral());
    CPPUNIT_ASSERT(feed.root().at({"response", "items", "2"}).absent());
    CPPUNIT_ASSERT(feed.root().at({"response", "items", "x"}).absent());
    std::string keys;
    feed.root().member("k").forEachEntry(
        [&](const std::string_view* key, FeedValue) { keys += std::string(*key) + ";"; });
    CPPUNIT_ASSERT_EQUAL(std::string("n1;n2;"), keys);
  }

  void limitsDepthAndSize() {
    ListFeed shallow(4);
    CPPUNIT_ASSERT(shallow.parse("[[[[[[1]]]]]]", 1000).has_value());
    CPPUNIT_ASSERT(!shallow.parse("[[1]]", 1000).has_value());
    CPPUNIT_ASSERT(shallow.parse("[1,2,3]", 3).has_value());  // over max_bytes
    CPPUNIT_ASSERT(shallow.root().absent());                  // a failed parse leaves nothing
    CPPUNIT_ASSERT(shallow.parse(std::string(1000000, '['), 2000000).has_value());
  }

  void unholdableNumbersCostOnlyTheirRow() {
    // simdjson refuses a document over one integer beyond 64 bits: only its row may suffer.
    RowCounts counts;
    const auto batch = parseList(
        R"([{"market_hash_name":"Huge","price":123456789012345678901234567890},)"
        R"({"market_hash_name":"Tiny \"1e400\" name","price":1e400,"quantity":1e400},)"
        R"({"market_hash_name":"Recoil Case","price":49,"quantity":99999999999999999999}])",
        listMapping({.items = "", .price = "price", .listings = "quantity"}), 16, counts);
    CPPUNIT_ASSERT_MESSAGE(batch.status.message(), batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, batch.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::string("Recoil Case"), batch.quotes[0].market_hash_name);
    CPPUNIT_ASSERT(!batch.quotes[0].listings.has_value());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, counts.no_price);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ListFeedTest);
