#include "SkinportSource.hpp"
#include "SourcesTestSupport.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <stdexcept>

using skinpulse::plugins::skinport::SkinportSource;
using skinpulse::sdk::HttpResponse;
using skinpulse::sdk::PriceKind;
using skinpulse::sdk::QuoteBatch;
using skinpulse::sdk::QuotedPrice;
using skinpulse::sdk::Status;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;

namespace {
const std::string kBase = "http://skinport.test";
const std::string kItemsUrl = kBase + "/v1/items?app_id=730&currency=USD";
}  // namespace

class SkinportSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SkinportSourceTest);
  CPPUNIT_TEST(parsesRealRowsAndSkipsOtherCurrencies);
  CPPUNIT_TEST(sendsBrotliRequestWithTimeoutAndCap);
  CPPUNIT_TEST(fallsBackToSuggestedPriceAndSkipsRowsWithoutPrice);
  CPPUNIT_TEST(malformedJsonIsMalformed);
  CPPUNIT_TEST(wrongTopLevelTypeIsMalformed);
  CPPUNIT_TEST(deepNestingIsMalformed);
  CPPUNIT_TEST(rowsWithoutANameAreSkipped);
  CPPUNIT_TEST(numbersBeyondInt64AreNotNumbers);
  CPPUNIT_TEST(serverErrorIsUnavailable);
  CPPUNIT_TEST(transportErrorIsUnavailable);
  CPPUNIT_TEST(rateLimitCarriesRetryAfter);
  CPPUNIT_TEST(rateLimitWithHttpDateRetryAfter);
  CPPUNIT_TEST(tooLargePassesThrough);
  CPPUNIT_TEST(refusesNonUsdCurrencyAndBadKeys);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    host_ = std::make_unique<MockHost>();
    host_->settings["url"] = kBase + "/";
  }

  QuoteBatch fetchWith(HttpResponse response) {
    host_->http_client.on(kBase, std::move(response));
    SkinportSource source(*host_);
    return source.fetchQuotes();
  }

  void parsesRealRowsAndSkipsOtherCurrencies() {
    const QuoteBatch result =
        fetchWith(MockHttp::ok(sources_test::fixture("skinport_items_rows_real.json")));
    CPPUNIT_ASSERT(result.status.isOk());
    // The fixture's second row says "currency":"EUR": never passed on as USD.
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.quotes.size());
    const auto& row = result.quotes[0];
    CPPUNIT_ASSERT_EQUAL(std::string("Sticker | syrsoN (Glitter) | Rio 2022"),
                         row.market_hash_name);
    CPPUNIT_ASSERT(row.price.form == QuotedPrice::Form::kMajor);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, row.price.major, 1e-12);
    // `quantity` counts listings: never traded volume (issue 17).
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, row.volume);
    CPPUNIT_ASSERT(row.listings.has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, *row.listings);
    CPPUNIT_ASSERT(!row.kind.has_value());  // the instance's kind, ask by default
    CPPUNIT_ASSERT_EQUAL(std::string("USD"), row.currency);
    CPPUNIT_ASSERT(row.observed_at.has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1731283259}, *row.observed_at);
  }

  void sendsBrotliRequestWithTimeoutAndCap() {
    fetchWith(MockHttp::ok("[]"));
    const auto requests = host_->http_client.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, requests.size());
    CPPUNIT_ASSERT_EQUAL(kItemsUrl, requests[0].url);
    CPPUNIT_ASSERT_EQUAL(std::string("GET"), requests[0].method);
    bool brotli = false;
    for (const auto& [name, value] : requests[0].headers) {
      if (name == "Accept-Encoding" && value == "br") brotli = true;
    }
    CPPUNIT_ASSERT(brotli);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30000},
                         static_cast<std::int64_t>(requests[0].timeout.count()));
    CPPUNIT_ASSERT_EQUAL(std::size_t{32} * 1024 * 1024, requests[0].max_body_bytes);
  }

  void fallsBackToSuggestedPriceAndSkipsRowsWithoutPrice() {
    const std::string body = R"js([
      {"market_hash_name":"AK-47 | Redline (Field-Tested)","currency":"USD","suggested_price":42.1,
       "min_price":null,"max_price":null,"mean_price":null,"median_price":null,"quantity":0,
       "created_at":1661324437,"updated_at":1749739389},
      {"market_hash_name":"Nothing Here","currency":"USD","suggested_price":null,"min_price":null,
       "quantity":0,"updated_at":1749739389},
      {"market_hash_name":"★ Karambit | Doppler (Factory New)","min_price":1234.5,
       "suggested_price":1300,"quantity":7},
      {"market_hash_name":17,"min_price":1.0},
      "not a row",
      {"market_hash_name":"Whole Dollars","currency":"USD","min_price":3,"quantity":2,
       "updated_at":null}
    ])js";
    const QuoteBatch result = fetchWith(MockHttp::ok(body));
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, result.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"),
                         result.quotes[0].market_hash_name);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(42.1, result.quotes[0].price.major, 1e-12);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, result.quotes[0].volume);
    CPPUNIT_ASSERT(result.quotes[0].kind == PriceKind::kReference);  // suggested_price
    CPPUNIT_ASSERT_EQUAL(std::string("★ Karambit | Doppler (Factory New)"),
                         result.quotes[1].market_hash_name);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1234.5, result.quotes[1].price.major, 1e-12);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, result.quotes[1].volume);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, result.quotes[1].listings.value_or(-1));
    CPPUNIT_ASSERT(!result.quotes[1].kind.has_value());
    CPPUNIT_ASSERT(!result.quotes[1].observed_at.has_value());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, result.quotes[2].price.major, 1e-12);
    CPPUNIT_ASSERT(!result.quotes[2].observed_at.has_value());
  }

  void malformedJsonIsMalformed() {
    const QuoteBatch result = fetchWith(MockHttp::ok(R"([{"market_hash_name": "x", )"));
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kMalformed);
    const QuoteBatch html = fetchWith(MockHttp::ok("<html>Just a moment...</html>"));
    CPPUNIT_ASSERT(html.status.code() == Status::Code::kMalformed);
  }

  void rowsWithoutANameAreSkipped() {
    // Found by fuzz_source_skinport: an empty name was passed on as an observation.
    const QuoteBatch result = fetchWith(MockHttp::ok(
        R"([{"market_hash_name":"","suggested_price":0.08},{"market_hash_name":"  ","min_price":1},)"
        R"({"market_hash_name":"Recoil Case","min_price":0.5}])"));
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::string("Recoil Case"), result.quotes[0].market_hash_name);
  }

  void numbersBeyondInt64AreNotNumbers() {
    // Found by fuzz_source_skinport in CI: an updated_at above INT64_MAX made Poco's
    // convert() throw out of fetch(), losing the whole cycle for one row.
    const QuoteBatch result = fetchWith(MockHttp::ok(
        R"([{"market_hash_name":"Recoil Case","min_price":0.5,"quantity":18446744073709551615,)"
        R"("updated_at":17312832591661324437},)"
        R"({"market_hash_name":"Fracture Case","min_price":0.25,"quantity":3,"updated_at":1731283259}])"));
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, result.quotes.size());
    CPPUNIT_ASSERT(!result.quotes[0].observed_at.has_value());
    CPPUNIT_ASSERT(!result.quotes[0].listings.has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1731283259}, *result.quotes[1].observed_at);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, result.quotes[1].listings.value_or(-1));
  }

  void deepNestingIsMalformed() {
    // 40 levels inside an otherwise valid row: legal JSON, but no market sends it, and a
    // million levels must not reach the parser's recursion.
    const std::string deep = std::string(40, '[') + std::string(40, ']');
    const QuoteBatch result = fetchWith(MockHttp::ok(
        R"J([{"market_hash_name":"AK-47 | Redline (Field-Tested)","currency":"USD","min_price":1.5,"x":)J" +
        deep + "}]"));
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kMalformed);
    CPPUNIT_ASSERT(result.quotes.empty());
    const QuoteBatch huge = fetchWith(MockHttp::ok(std::string(1000000, '[')));
    CPPUNIT_ASSERT(huge.status.code() == Status::Code::kMalformed);
  }

  void wrongTopLevelTypeIsMalformed() {
    const QuoteBatch result = fetchWith(MockHttp::ok(R"({"errors":[{"id":"x"}]})"));
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kMalformed);
    CPPUNIT_ASSERT(result.quotes.empty());
  }

  void serverErrorIsUnavailable() {
    const QuoteBatch result = fetchWith(sources_test::status(500, "oops"));
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kUnavailable);
    CPPUNIT_ASSERT(!result.retry_after_seconds.has_value());
  }

  void transportErrorIsUnavailable() {
    const QuoteBatch timeout =
        fetchWith(MockHttp::failure(HttpResponse::Error::kTimeout, "timed out"));
    CPPUNIT_ASSERT(timeout.status.code() == Status::Code::kUnavailable);
    const QuoteBatch connect =
        fetchWith(MockHttp::failure(HttpResponse::Error::kConnect, "refused"));
    CPPUNIT_ASSERT(connect.status.code() == Status::Code::kUnavailable);
  }

  void rateLimitCarriesRetryAfter() {
    const QuoteBatch result =
        fetchWith(sources_test::status(429, "{}", {{"retry-after", " 120 "}}));
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT(result.retry_after_seconds.has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{120}, *result.retry_after_seconds);
    const QuoteBatch without = fetchWith(sources_test::status(429));
    CPPUNIT_ASSERT(without.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT(!without.retry_after_seconds.has_value());
  }

  void rateLimitWithHttpDateRetryAfter() {
    // MockHost's clock is 2026-11-22T10:15:00Z.
    const QuoteBatch result = fetchWith(
        sources_test::status(429, "", {{"Retry-After", "Sun, 22 Nov 2026 10:20:00 GMT"}}));
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT(result.retry_after_seconds.has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{300}, *result.retry_after_seconds);
  }

  void tooLargePassesThrough() {
    host_->settings["max_bytes"] = "1024";
    const QuoteBatch result =
        fetchWith(MockHttp::failure(HttpResponse::Error::kTooLarge, "body over 1024 bytes"));
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kTooLarge);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1024}, host_->http_client.requests().at(0).max_body_bytes);
  }

  void refusesNonUsdCurrencyAndBadKeys() {
    host_->settings["currency"] = "usd";
    SkinportSource ok(*host_);  // case-insensitive USD is fine
    host_->settings["currency"] = "EUR";
    try {
      SkinportSource refused(*host_);
      CPPUNIT_FAIL("EUR accepted");
    } catch (const std::invalid_argument& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("currency") != std::string::npos);
    }
    host_->settings.erase("currency");
    host_->settings["max_bytes"] = "lots";
    CPPUNIT_ASSERT_THROW(SkinportSource bad(*host_), std::invalid_argument);
    host_->settings.erase("max_bytes");
    host_->settings["url"] = "ftp://api.skinport.com";
    CPPUNIT_ASSERT_THROW(SkinportSource bad(*host_), std::invalid_argument);
    host_->settings.erase("url");
    CPPUNIT_ASSERT_THROW(SkinportSource bad(*host_), std::invalid_argument);
  }

 private:
  std::unique_ptr<MockHost> host_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(SkinportSourceTest);
