// json_http mapped onto the shapes of real keyless feeds (tests/fixtures/*_shape.json,
// docs/upstreams.md "More market feeds"), with the keys the shipped drop-ins in
// etc/skinpulse/conf.d use. Each test pins one known item to a plausible price range:
// the classic bug with these feeds is a unit off by x10 or x100.

#include "JsonHttpSource.hpp"
#include "mocks/Fixture.hpp"
#include "mocks/MockHost.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>

using skinpulse::plugins::json_http::JsonHttpSource;
using skinpulse::test::fixture;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;
namespace sdk = skinpulse::sdk;
using Code = sdk::Status::Code;

namespace {

const char* const kAk = "AK-47 | Redline (Field-Tested)";

struct Fetched {
  sdk::QuoteBatch batch;
  std::unique_ptr<MockHost> host;
};

Fetched fetchFeed(const std::string& body, const std::map<std::string, std::string>& keys) {
  Fetched out;
  out.host = std::make_unique<MockHost>();
  out.host->settings = keys;
  out.host->settings["url"] = "https://feed.test/prices.json";
  out.host->http_client.on("https://feed.test/", MockHttp::ok(body));
  JsonHttpSource source(*out.host);
  out.batch = source.fetchQuotes();
  return out;
}

bool has(const sdk::QuoteBatch& batch, const std::string& name) {
  for (const auto& quote : batch.quotes) {
    if (quote.market_hash_name == name) return true;
  }
  return false;
}

const sdk::MarketQuote& find(const sdk::QuoteBatch& batch, const std::string& name) {
  for (const auto& quote : batch.quotes) {
    if (quote.market_hash_name == name) return quote;
  }
  throw std::runtime_error("no quote for " + name);
}

// The quote's price in dollars, whatever form it has.
double dollars(const sdk::MarketQuote& quote) {
  return quote.price.form == sdk::QuotedPrice::Form::kCents
             ? static_cast<double>(quote.price.cents) / 100.0
             : quote.price.major;
}

}  // namespace

class JsonHttpFeedsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(JsonHttpFeedsTest);
  CPPUNIT_TEST(whiteMarket);
  CPPUNIT_TEST(csgoTraderBuff163Ask);
  CPPUNIT_TEST(csgoTraderBuff163Bid);
  CPPUNIT_TEST(csgoTraderYoupin);
  CPPUNIT_TEST(marketCsgoTopLevelTimeAndListingStrings);
  CPPUNIT_TEST(waxpeerThousandths);
  CPPUNIT_TEST(pointerEscapesAndArrayIndexes);
  CPPUNIT_TEST(itemsPathMustLeadToItems);
  CPPUNIT_TEST(unreadableTopLevelTimeIsMalformed);
  CPPUNIT_TEST(currencyIsPassedOnForTheHost);
  CPPUNIT_TEST(hostileNumbersAndTypes);
  CPPUNIT_TEST(bulkFeedOverTheCapIsTooLarge);
  CPPUNIT_TEST(refusesBadMappingKeys);
  CPPUNIT_TEST_SUITE_END();

 public:
  void whiteMarket() {
    const auto f =
        fetchFeed(fixture("whitemarket_prices_730_shape.json"), {{"price_unit", "major"}});
    CPPUNIT_ASSERT(f.batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), f.batch.quotes.size());
    const auto* ak = &find(f.batch, kAk);
    CPPUNIT_ASSERT(ak->price.form == sdk::QuotedPrice::Form::kMajor);  // "40.83": a number
    CPPUNIT_ASSERT(dollars(*ak) > 20 && dollars(*ak) < 80);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(0), ak->volume);
    CPPUNIT_ASSERT(!ak->listings);
    CPPUNIT_ASSERT(!ak->kind);  // the instance's `kind` (ask in the drop-in)
    CPPUNIT_ASSERT_EQUAL(std::string("USD"), ak->currency);
    CPPUNIT_ASSERT(!ak->observed_at);
  }

  void csgoTraderBuff163Ask() {
    const auto f = fetchFeed(fixture("csgotrader_buff163_shape.json"),
                             {{"price_field", "/starting_at/price"}, {"price_unit", "major"}});
    CPPUNIT_ASSERT(f.batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), f.batch.quotes.size());
    CPPUNIT_ASSERT(dollars(find(f.batch, kAk)) > 20 && dollars(find(f.batch, kAk)) < 80);
    const auto& knife = find(f.batch, "★ Karambit | Doppler (Factory New)");
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1702.31, dollars(knife), 1e-9);  // not a phase's price
  }

  void csgoTraderBuff163Bid() {
    const auto f = fetchFeed(fixture("csgotrader_buff163_shape.json"),
                             {{"price_field", "/highest_order/price"}, {"price_unit", "major"}});
    CPPUNIT_ASSERT(f.batch.status.isOk());
    // The sticker has no buy order (null): skipped quietly, not a malformed item.
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), f.batch.quotes.size());
    CPPUNIT_ASSERT(!has(f.batch, "Sticker | syrsoN (Glitter) | Rio 2022"));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(35.9, dollars(find(f.batch, kAk)), 1e-9);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), f.host->lines.size());
    CPPUNIT_ASSERT(f.host->lines[0].first == sdk::LogLevel::kDebug);
    CPPUNIT_ASSERT(f.host->lines[0].second.find("1 without a price") != std::string::npos);
  }

  void csgoTraderYoupin() {
    const auto f = fetchFeed(fixture("csgotrader_youpin_shape.json"),
                             {{"price_field", ""}, {"price_unit", "major"}});
    CPPUNIT_ASSERT(f.batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), f.batch.quotes.size());
    CPPUNIT_ASSERT(dollars(find(f.batch, kAk)) > 20 && dollars(find(f.batch, kAk)) < 80);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.38, dollars(find(f.batch, "Recoil Case")), 1e-9);
  }

  void marketCsgoTopLevelTimeAndListingStrings() {
    const auto f =
        fetchFeed(fixture("marketcsgo_prices_usd_shape.json"), {{"items_path", "/items"},
                                                                {"price_unit", "major"},
                                                                {"volume_field", ""},
                                                                {"listings_field", "volume"},
                                                                {"time_field", "#/time"}});
    CPPUNIT_ASSERT(f.batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), f.batch.quotes.size());
    const auto* ak = &find(f.batch, kAk);
    CPPUNIT_ASSERT(dollars(*ak) > 20 && dollars(*ak) < 80);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(0), ak->volume);  // "volume" there counts listings
    CPPUNIT_ASSERT_EQUAL(std::int64_t(312), ak->listings.value_or(-1));
    for (const auto& quote : f.batch.quotes) {
      CPPUNIT_ASSERT_EQUAL(std::int64_t(1724318846), quote.observed_at.value_or(0));
    }
  }

  void waxpeerThousandths() {
    const auto f = fetchFeed(fixture("waxpeer_prices_shape.json"), {{"items_path", "/items"},
                                                                    {"name_field", "name"},
                                                                    {"price_field", "min"},
                                                                    {"price_unit", "milli"},
                                                                    {"volume_field", ""},
                                                                    {"listings_field", "count"},
                                                                    {"image_field", "img"}});
    CPPUNIT_ASSERT(f.batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), f.batch.quotes.size());
    const auto* ak = &find(f.batch, kAk);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(41.999, dollars(*ak), 1e-9);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(41), ak->listings.value_or(-1));
    CPPUNIT_ASSERT(ak->image_url.rfind("https://community.akamai.steamstatic.com/", 0) == 0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(
        1937.999, dollars(find(f.batch, "★ Karambit | Doppler (Factory New)")), 1e-9);
  }

  void pointerEscapesAndArrayIndexes() {
    const auto f = fetchFeed(R"({"data":{"a/b":[{"n":{"~x":"A"},"p":[5,7],"v":2,"l":9}]}})",
                             {{"items_path", "/data/a~1b"},
                              {"name_field", "/n/~0x"},
                              {"price_field", "/p/1"},
                              {"volume_field", "v"},
                              {"listings_field", "l"},
                              {"time_field", ""}});
    CPPUNIT_ASSERT(f.batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), f.batch.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::string("A"), f.batch.quotes[0].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(7), f.batch.quotes[0].price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(2), f.batch.quotes[0].volume);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(9), f.batch.quotes[0].listings.value_or(-1));
  }

  void itemsPathMustLeadToItems() {
    for (const char* body : {R"({"items":5})", R"({"other":[]})", R"("text")", "null", "17"}) {
      const auto f = fetchFeed(body, {{"items_path", "/items"}});
      CPPUNIT_ASSERT_MESSAGE(body, f.batch.status.code() == Code::kMalformed);
    }
    const auto empty = fetchFeed(R"({"items":{}})", {{"items_path", "/items"}});
    CPPUNIT_ASSERT(empty.batch.status.isOk());
    CPPUNIT_ASSERT(empty.batch.quotes.empty());
  }

  void unreadableTopLevelTimeIsMalformed() {
    const auto f = fetchFeed(R"({"time":"soon","items":[{"market_hash_name":"A","price":1}]})",
                             {{"items_path", "/items"}, {"time_field", "#/time"}});
    CPPUNIT_ASSERT(f.batch.status.code() == Code::kMalformed);
    const auto none = fetchFeed(R"({"items":[{"market_hash_name":"A","price":1}]})",
                                {{"items_path", "/items"}, {"time_field", "#/time"}});
    CPPUNIT_ASSERT(none.batch.status.isOk());
    CPPUNIT_ASSERT(!none.batch.quotes.at(0).observed_at);  // the host uses the poll time
  }

  void currencyIsPassedOnForTheHost() {
    // No rates yet: the host rejects these as no_rate; the plugin only labels them.
    const auto f = fetchFeed(R"([{"market_hash_name":"A","price":"12.5"}])",
                             {{"currency", "CNY"}, {"price_unit", "major"}});
    CPPUNIT_ASSERT(f.batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::string("CNY"), f.batch.quotes.at(0).currency);
  }

  void hostileNumbersAndTypes() {
    // Beyond int64 (Poco keeps these as UInt64; convert<Int64>() would throw), negative,
    // fractional, boolean and object counts: the item is skipped, the fetch goes on.
    const auto f = fetchFeed(
        R"({"items":[
          {"market_hash_name":"A","price":1,"listings":18446744073709551615},
          {"market_hash_name":"B","price":1,"listings":9223372036854775808},
          {"market_hash_name":"C","price":1,"listings":"99999999999999999999"},
          {"market_hash_name":"D","price":1,"listings":-3},
          {"market_hash_name":"E","price":1,"listings":true},
          {"market_hash_name":"F","price":1,"listings":{"n":1}},
          {"market_hash_name":"G","price":18446744073709551615},
          {"market_hash_name":"H","price":1,"time":18446744073709551615},
          {"market_hash_name":"I","price":1,"time":"18446744073709551615"},
          {"market_hash_name":"J","price":[1]},
          {"market_hash_name":"K","price":1,"listings":"12"}
        ]})",
        {{"items_path", "/items"}, {"listings_field", "listings"}});
    CPPUNIT_ASSERT(f.batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), f.batch.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::string("K"), f.batch.quotes[0].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(12), f.batch.quotes[0].listings.value_or(-1));
    CPPUNIT_ASSERT(f.host->lines.at(0).first == sdk::LogLevel::kWarn);
    // Deep nesting inside a keyed feed.
    const auto deep = fetchFeed("{\"A\":" + std::string(100, '[') + std::string(100, ']') + "}",
                                {{"price_field", ""}});
    CPPUNIT_ASSERT(deep.batch.status.code() == Code::kMalformed);
  }

  void bulkFeedOverTheCapIsTooLarge() {
    MockHost host;
    host.settings["url"] = "https://feed.test/big.json";
    sdk::HttpResponse big;
    big.error = sdk::HttpResponse::Error::kTooLarge;
    host.http_client.on("https://feed.test/", big);
    JsonHttpSource source(host);
    const auto batch = source.fetchQuotes();
    CPPUNIT_ASSERT(batch.status.code() == Code::kTooLarge);
    CPPUNIT_ASSERT(batch.status.message().find("too large") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::size_t(64u * 1024u * 1024u),
                         host.http_client.requests().at(0).max_body_bytes);
  }

  void refusesBadMappingKeys() {
    const std::map<std::string, std::string> bad[] = {
        {{"items_path", "items"}},    // a pointer starts with '/'
        {{"price_field", "/a/~2"}},   // '~' only as ~0 or ~1
        {{"name_field", "#/name"}},   // one name for every item makes no sense
        {{"price_unit", "dollars"}},  // cents, major or milli
        {{"currency", "usd"}},        // ISO 4217 capitals
        {{"currency", "EURO"}},
        {{"listings_field", "volume"}},  // the default volume_field: a count is not volume
    };
    for (const auto& keys : bad) {
      MockHost host;
      host.settings = keys;
      host.settings["url"] = "https://feed.test/x.json";
      CPPUNIT_ASSERT_THROW_MESSAGE(keys.begin()->first, JsonHttpSource source(host),
                                   std::runtime_error);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(JsonHttpFeedsTest);
