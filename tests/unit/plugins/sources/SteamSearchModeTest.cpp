#include "PacedTestSupport.hpp"
#include "SteamMarketSource.hpp"
#include "SteamSearchPage.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <stdexcept>

using paced_test::answer;
using paced_test::fixture;
using paced_test::ScriptedHost;
using skinpulse::plugins::steam_market::imageUrlOf;
using skinpulse::plugins::steam_market::parseSearchPage;
using skinpulse::plugins::steam_market::SteamMarketSource;
using skinpulse::sdk::HttpResponse;
using skinpulse::sdk::MarketQuote;
using skinpulse::sdk::QuoteBatch;
using skinpulse::sdk::QuotedPrice;
using skinpulse::sdk::Status;

namespace {
const std::string kBase = "http://steam.test";
const std::string kAk = "AK-47 | Redline (Field-Tested)";

// A page of `count` results named "Item <start + i>", all priced, total_count `total`.
std::string page(int start, int count, int total) {
  std::string rows;
  for (int i = 0; i < count; ++i) {
    rows += std::string(i ? "," : "") + R"({"hash_name":"Item )" + std::to_string(start + i) +
            R"(","sell_listings":4,"sell_price":)" + std::to_string(100 + start + i) +
            R"(,"asset_description":{"icon_url":"abc_)" + std::to_string(start + i) + R"("}})";
  }
  return R"({"success":true,"start":)" + std::to_string(start) + R"(,"total_count":)" +
         std::to_string(total) + R"(,"results":[)" + rows + "]}";
}

const MarketQuote* find(const QuoteBatch& batch, const std::string& name) {
  for (const auto& quote : batch.quotes) {
    if (quote.market_hash_name == name) return &quote;
  }
  return nullptr;
}
}  // namespace

class SteamSearchModeTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SteamSearchModeTest);
  CPPUNIT_TEST(fixturePageGivesAsksListingsAndImages);
  CPPUNIT_TEST(knownItemIsPricedPlausibly);
  CPPUNIT_TEST(requestsTheDocumentedPage);
  CPPUNIT_TEST(resumesAcrossPollsAndWrapsAtTheEnd);
  CPPUNIT_TEST(emptyPageBeforeTheEndIsThrottling);
  CPPUNIT_TEST(throttlingAfterPagesKeepsThem);
  CPPUNIT_TEST(aFailedPageAfterGoodOnesIsAFailedPart);
  CPPUNIT_TEST(tooManyRequestsHonoursRetryAfter);
  CPPUNIT_TEST(serverErrorKeepsTheOffset);
  CPPUNIT_TEST(garbageIsMalformedAndSkipped);
  CPPUNIT_TEST(hostileRowsAreSkipped);
  CPPUNIT_TEST(oversizeMovesPastThePage);
  CPPUNIT_TEST(iconUrlsAreChecked);
  CPPUNIT_TEST(priceOverviewStaysTheDefault);
  CPPUNIT_TEST(badConfigurationIsRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    host_ = std::make_unique<ScriptedHost>();
    host_->settings["url"] = kBase;
    host_->settings["mode"] = "search";
  }

  void fixturePageGivesAsksListingsAndImages() {
    host_->then(answer(200, fixture("steam_search_render_page_shape.json")));
    host_->settings["requests_per_minute"] = "1";
    SteamMarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT_MESSAGE(result.status.message(), result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, result.quotes.size());
    const MarketQuote* ak = find(result, kAk);
    CPPUNIT_ASSERT(ak);
    CPPUNIT_ASSERT(ak->price.form == QuotedPrice::Form::kCents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3412}, ak->price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1875}, *ak->listings);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, ak->volume);
    CPPUNIT_ASSERT(!ak->kind);  // the instance's kind: ask by default
    CPPUNIT_ASSERT_EQUAL(std::string("USD"), ak->currency);
    CPPUNIT_ASSERT_EQUAL(
        std::string::size_type{0},
        ak->image_url.rfind("https://community.akamai.steamstatic.com/economy/image/i0CoZ8", 0));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, source.searchStart());  // ten results read
  }

  void knownItemIsPricedPlausibly() {
    host_->then(answer(200, fixture("steam_search_render_page_shape.json")));
    host_->settings["requests_per_minute"] = "1";
    SteamMarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();  // the quote lives in the batch
    const MarketQuote* ak = find(result, kAk);
    CPPUNIT_ASSERT(ak && ak->price.cents >= 1000 && ak->price.cents <= 6000);
  }

  void requestsTheDocumentedPage() {
    host_->then(answer(200, page(0, 10, 1000)));
    host_->settings["requests_per_minute"] = "2";
    SteamMarketSource source(*host_);
    source.fetchQuotes();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, host_->requests.size());
    CPPUNIT_ASSERT_EQUAL(
        kBase +
            "/market/search/render/?appid=730&norender=1&currency=1&start=0&count=10&sort_column="
            "name&sort_dir=asc",
        host_->requests[0].url);
    CPPUNIT_ASSERT(host_->requests[1].url.find("&start=10&") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1 << 20}, host_->requests[0].max_body_bytes);
  }

  void resumesAcrossPollsAndWrapsAtTheEnd() {
    host_->settings["requests_per_minute"] = "2";
    for (int start = 0; start < 50; start += 10) host_->then(answer(200, page(start, 10, 45)));
    SteamMarketSource source(*host_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{20}, source.fetchQuotes().quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{20}, source.searchStart());
    CPPUNIT_ASSERT_EQUAL(std::size_t{20}, source.fetchQuotes().quotes.size());
    // The fifth page ends the pass (40 + 10 >= 45): the next poll starts again at 0.
    const QuoteBatch last = source.fetchQuotes();
    CPPUNIT_ASSERT(last.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, host_->requests.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, source.searchStart());
    CPPUNIT_ASSERT(find(last, "Item 49"));
  }

  void emptyPageBeforeTheEndIsThrottling() {
    host_->settings["requests_per_minute"] = "3";
    host_->then(answer(200, R"({"success":true,"start":0,"total_count":0,"results":[]})"));
    host_->then(answer(200, page(0, 10, 1000)));
    SteamMarketSource source(*host_);
    const QuoteBatch throttled = source.fetchQuotes();
    CPPUNIT_ASSERT(throttled.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{60}, *throttled.retry_after_seconds);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, source.searchStart());  // not the end of the list
    // Held off: nothing sent within the minute, and no failure reported meanwhile.
    host_->now_millis += 59000;
    CPPUNIT_ASSERT(source.fetchQuotes().status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->requests.size());
    host_->now_millis += 2000;
    CPPUNIT_ASSERT_EQUAL(std::size_t{30}, source.fetchQuotes().quotes.size());
    CPPUNIT_ASSERT(host_->requests[1].url.find("&start=0&") != std::string::npos);
    // A second throttle in a row doubles the wait… after a success it starts over.
    host_->script.clear();
    host_->then(answer(200, R"({"success":true,"total_count":1000,"results":[]})"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{60}, *source.fetchQuotes().retry_after_seconds);
    host_->now_millis += 61000;
    CPPUNIT_ASSERT_EQUAL(std::int64_t{120}, *source.fetchQuotes().retry_after_seconds);
  }

  void aFailedPageAfterGoodOnesIsAFailedPart() {
    // docs/api.md §19: the pages read well are kept, the failed one is named in the report.
    host_->settings["requests_per_minute"] = "5";
    host_->then(answer(200, page(0, 10, 1000)));
    host_->then(answer(500, "<html>Error</html>"));
    SteamMarketSource source(*host_);
    const skinpulse::sdk::PollReport report = source.poll();
    CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, report.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, report.failed_parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("page at start=10"), report.failed_parts[0].part);
    CPPUNIT_ASSERT(report.failed_parts[0].status.code() == Status::Code::kUnavailable);
  }

  void throttlingAfterPagesKeepsThem() {
    host_->settings["requests_per_minute"] = "5";
    host_->then(answer(200, page(0, 10, 1000)));
    host_->then(answer(200, R"({"success":true,"total_count":1000,"results":null})"));
    SteamMarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, result.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, source.searchStart());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, host_->requests.size());
  }

  void tooManyRequestsHonoursRetryAfter() {
    host_->then(answer(429, "", {{"Retry-After", "90"}}));
    SteamMarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{90}, *result.retry_after_seconds);
    host_->now_millis += 80000;
    source.fetchQuotes();
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->requests.size());
    // Steam's usual 429 says nothing: the doubling back-off applies.
    ScriptedHost other;
    other.settings = host_->settings;
    other.then(answer(429, "null"));
    SteamMarketSource bare(other);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{60}, *bare.fetchQuotes().retry_after_seconds);
  }

  void serverErrorKeepsTheOffset() {
    host_->then(answer(500, "<html>Error</html>"));
    SteamMarketSource source(*host_);
    CPPUNIT_ASSERT(source.fetchQuotes().status.code() == Status::Code::kUnavailable);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, source.searchStart());
    // The daemon's budget refusing a request reaches the plugin as a timeout.
    ScriptedHost budget;
    budget.settings = host_->settings;
    budget.then(skinpulse::test::MockHttp::failure(HttpResponse::Error::kTimeout,
                                                   "not sent: budget used up"));
    SteamMarketSource paced(budget);
    CPPUNIT_ASSERT(paced.fetchQuotes().status.code() == Status::Code::kUnavailable);
  }

  void garbageIsMalformedAndSkipped() {
    for (const std::string& bad :
         std::vector<std::string>{"<html>", "[]", R"({"success":false})",
                                  R"({"success":true,"results":{}})", std::string(50000, '{')}) {
      ScriptedHost host;
      host.settings = host_->settings;
      host.then(answer(200, bad));
      SteamMarketSource source(host);
      CPPUNIT_ASSERT_MESSAGE(bad.substr(0, 30),
                             source.fetchQuotes().status.code() == Status::Code::kMalformed);
      CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, source.searchStart());  // moved past it
    }
  }

  void hostileRowsAreSkipped() {
    const std::string body =
        std::string(R"({"success":1,"total_count":"many","results":[1,null,"x",{},)") +
        R"({"hash_name":"A","sell_price":"350","sell_listings":3},)" +
        R"({"hash_name":"B","sell_price":-1,"sell_listings":3},)" +
        R"({"hash_name":"C","sell_price":18446744073709551615,"sell_listings":3},)" +
        R"({"hash_name":"D","sell_price":350,"sell_listings":-2},)" +
        R"({"hash_name":"E","sell_price":0,"sell_listings":0},)" +
        R"({"hash_name":"F","sell_price":350.5,"sell_listings":3},)" +
        R"({"hash_name":"G","sell_price":350,"asset_description":"x"},)" +
        R"({"hash_name":"","asset_description":{"market_hash_name":"H","icon_url":"h"},)" +
        R"("sell_price":250,"sell_listings":1},)" + R"({"hash_name":")" + std::string(600, 'n') +
        R"(","sell_price":5,"sell_listings":1}]})";
    const auto parsed = parseSearchPage(body);
    CPPUNIT_ASSERT(parsed.ok);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{-1}, parsed.total_count);
    // G (no count, no picture) and H (its name from the description) are kept.
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, parsed.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::string("G"), parsed.quotes[0].market_hash_name);
    CPPUNIT_ASSERT(!parsed.quotes[0].listings);
    CPPUNIT_ASSERT(parsed.quotes[0].image_url.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("H"), parsed.quotes[1].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::size_t{13}, parsed.results);
  }

  void oversizeMovesPastThePage() {
    host_->then(skinpulse::test::MockHttp::failure(HttpResponse::Error::kTooLarge, "too large"));
    SteamMarketSource source(*host_);
    CPPUNIT_ASSERT(source.fetchQuotes().status.code() == Status::Code::kTooLarge);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, source.searchStart());
  }

  void iconUrlsAreChecked() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("https://community.akamai.steamstatic.com/economy/image/a-b_c"),
        imageUrlOf("a-b_c"));
    for (const std::string& bad : std::vector<std::string>{
             "", "a b", "a\"b", "../x", "/x", "a?b", "https://evil/x", std::string(2000, 'a')}) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(bad.substr(0, 20), std::string(), imageUrlOf(bad));
    }
  }

  void priceOverviewStaysTheDefault() {
    host_->settings.erase("mode");
    host_->addItems({kAk});
    host_->then(answer(200, fixture("steam_priceoverview_usd_real.json")));
    SteamMarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.quotes.size());
    CPPUNIT_ASSERT(host_->requests[0].url.find("/market/priceoverview/") != std::string::npos);
  }

  void badConfigurationIsRefused() {
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             {"mode", "bulk"}, {"page_size", "101"}, {"page_size", "0"}, {"items", kAk}}) {
      ScriptedHost host;
      host.settings = host_->settings;
      host.settings[key] = value;
      CPPUNIT_ASSERT_THROW_MESSAGE(key, SteamMarketSource source(host), std::invalid_argument);
    }
  }

 private:
  std::unique_ptr<ScriptedHost> host_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(SteamSearchModeTest);
