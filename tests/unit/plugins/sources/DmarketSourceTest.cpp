#include "DmarketParse.hpp"
#include "DmarketSource.hpp"
#include "Ed25519Signer.hpp"
#include "PacedTestSupport.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

#include <chrono>
#include <memory>
#include <stdexcept>

using paced_test::answer;
using paced_test::fixture;
using paced_test::ScriptedHost;
using skinpulse::plugins::dmarket::DmarketSource;
using skinpulse::plugins::dmarket::parseAggregated;
using skinpulse::plugins::dmarket::PriceUnit;
using skinpulse::plugins::dmarket::verifyEd25519;
using skinpulse::sdk::HttpResponse;
using skinpulse::sdk::MarketQuote;
using skinpulse::sdk::PriceKind;
using skinpulse::sdk::QuoteBatch;
using skinpulse::sdk::QuotedPrice;
using skinpulse::sdk::Status;

namespace {
const std::string kBase = "http://dmarket.test";
const std::string kAggregateUrl = kBase + "/marketplace-api/v1/aggregated-prices";
const std::string kAk = "AK-47 | Redline (Field-Tested)";
// RFC 8032 test 1 key pair, in DMarket's 64-byte secret form.
const std::string kSeed = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const std::string kPublic = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

std::vector<std::string> titlesOf(const std::string& body) {
  Poco::JSON::Parser parser;
  const auto root = parser.parse(body).extract<Poco::JSON::Object::Ptr>();
  const auto filter = root->getObject("filter");
  std::vector<std::string> out;
  const auto titles = filter->getArray("titles");
  for (std::size_t i = 0; i < titles->size(); ++i)
    out.push_back(titles->getElement<std::string>(i));
  return out;
}

const MarketQuote* find(const QuoteBatch& batch, const std::string& name, PriceKind kind) {
  for (const auto& quote : batch.quotes) {
    if (quote.market_hash_name == name && quote.kind == kind) return &quote;
  }
  return nullptr;
}

std::string row(const std::string& title, const std::string& bid, const std::string& ask) {
  return R"({"title":")" + title + R"(","orderBestPrice":)" + bid + R"(,"orderCount":2,)" +
         R"("offerBestPrice":)" + ask + R"(,"offerCount":3})";
}
std::string body(const std::string& rows) { return R"({"aggregatedPrices":[)" + rows + "]}"; }
}  // namespace

class DmarketSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DmarketSourceTest);
  CPPUNIT_TEST(fixtureGivesBidAndAskWithListings);
  CPPUNIT_TEST(knownItemIsPricedPlausibly);
  CPPUNIT_TEST(postsBatchesOfAtMostOneHundredTitles);
  CPPUNIT_TEST(resumesTheCatalogueAcrossPollsAndWraps);
  CPPUNIT_TEST(exhaustedRateLimitWindowStopsAndHoldsOff);
  CPPUNIT_TEST(rateLimitResetAsUnixTime);
  CPPUNIT_TEST(tooManyRequestsHonoursRetryAfter);
  CPPUNIT_TEST(tooManyRequestsAfterABatchKeepsIt);
  CPPUNIT_TEST(pollReportsRowsSkipsAndTheFailedRequest);
  CPPUNIT_TEST(serverErrorIsUnavailableAndKeepsTheCursor);
  CPPUNIT_TEST(garbageIsMalformed);
  CPPUNIT_TEST(hostileRowsAreSkipped);
  CPPUNIT_TEST(oversizeMovesPastTheBatch);
  CPPUNIT_TEST(decimalPricesUnderCentsRefuseTheBatch);
  CPPUNIT_TEST(majorUnitReadsDollarsAndRefusesCents);
  CPPUNIT_TEST(signedSalesCarryAVerifiableSignature);
  CPPUNIT_TEST(noKeyNoSales);
  CPPUNIT_TEST(badConfigurationIsRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    host_ = std::make_unique<ScriptedHost>();
    host_->settings["url"] = kBase;
    host_->addItems({kAk, "AWP | Asiimov (Field-Tested)", "Dreams & Nightmares Case",
                     "★ StatTrak™ Karambit | Autotronic (Field-Tested)",
                     "Sticker | syrsoN (Glitter) | Rio 2022"});
  }

  void fixtureGivesBidAndAskWithListings() {
    host_->then(answer(200, fixture("dmarket_aggregated_prices_shape.json")));
    DmarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT_MESSAGE(result.status.message(), result.status.isOk());
    // 5 rows; the knife has no buy order and the sticker no offer: 8 quotes.
    CPPUNIT_ASSERT_EQUAL(std::size_t{8}, result.quotes.size());
    const MarketQuote* bid = find(result, kAk, PriceKind::kBid);
    const MarketQuote* ask = find(result, kAk, PriceKind::kAsk);
    CPPUNIT_ASSERT(bid && ask);
    CPPUNIT_ASSERT(bid->price.form == QuotedPrice::Form::kCents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2905}, bid->price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{41}, *bid->listings);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3188}, ask->price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{236}, *ask->listings);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, ask->volume);  // counts are listings, never volume
    CPPUNIT_ASSERT_EQUAL(std::string("USD"), ask->currency);
    // Both are the poll's prices: same time (the daemon files the bid under dmarket-bid).
    CPPUNIT_ASSERT_EQUAL(*ask->observed_at, *bid->observed_at);
    CPPUNIT_ASSERT_EQUAL(host_->now_millis / 1000, *ask->observed_at);
    CPPUNIT_ASSERT(
        !find(result, "★ StatTrak™ Karambit | Autotronic (Field-Tested)", PriceKind::kBid));
    CPPUNIT_ASSERT(
        find(result, "★ StatTrak™ Karambit | Autotronic (Field-Tested)", PriceKind::kAsk));
    CPPUNIT_ASSERT(!find(result, "Sticker | syrsoN (Glitter) | Rio 2022", PriceKind::kAsk));
    // The request: a POST of JSON, with the timeout and cap set.
    const auto& request = host_->requests.at(0);
    CPPUNIT_ASSERT_EQUAL(std::string("POST"), request.method);
    CPPUNIT_ASSERT_EQUAL(kAggregateUrl, request.url);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1 << 20}, request.max_body_bytes);
    CPPUNIT_ASSERT(request.timeout == std::chrono::milliseconds(20000));
    CPPUNIT_ASSERT(request.body.find(R"("game":"a8db")") != std::string::npos);
    CPPUNIT_ASSERT(request.body.find(R"("limit":"100")") != std::string::npos);
    CPPUNIT_ASSERT(request.body.find(R"("cursor":"")") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, titlesOf(request.body).size());
    CPPUNIT_ASSERT_EQUAL(kAk, titlesOf(request.body).at(0));
  }

  void knownItemIsPricedPlausibly() {
    // AK-47 | Redline (Field-Tested) trades at roughly $10-$60 everywhere: a unit slip
    // of ×100 either way lands far outside.
    host_->then(answer(200, fixture("dmarket_aggregated_prices_shape.json")));
    DmarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    for (const PriceKind kind : {PriceKind::kBid, PriceKind::kAsk}) {
      const MarketQuote* quote = find(result, kAk, kind);
      CPPUNIT_ASSERT(quote);
      CPPUNIT_ASSERT(quote->price.cents >= 1000 && quote->price.cents <= 6000);
    }
  }

  void postsBatchesOfAtMostOneHundredTitles() {
    for (int i = 0; i < 245; ++i) host_->catalog_items.add("Item " + std::to_string(i));
    host_->settings["requests_per_poll"] = "10";
    host_->then(answer(200, body(row(kAk, "\"2900\"", "\"3100\""))));
    DmarketSource source(*host_);
    CPPUNIT_ASSERT(source.fetchQuotes().status.isOk());
    // 250 names: 100, 100, 50, then the poll stops at the end of the catalogue.
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, host_->requests.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{100}, titlesOf(host_->requests[0].body).size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{100}, titlesOf(host_->requests[1].body).size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{50}, titlesOf(host_->requests[2].body).size());
    CPPUNIT_ASSERT_EQUAL(std::string("Item 95"), titlesOf(host_->requests[1].body).at(0));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, source.cursor());
  }

  void resumesTheCatalogueAcrossPollsAndWraps() {
    for (int i = 0; i < 15; ++i) host_->catalog_items.add("Item " + std::to_string(i));
    host_->settings["batch_size"] = "4";
    host_->settings["requests_per_poll"] = "2";
    host_->then(answer(200, body(row(kAk, "\"2900\"", "\"3100\""))));
    DmarketSource source(*host_);
    std::vector<std::string> seen;
    for (int poll = 0; poll < 3; ++poll) {
      CPPUNIT_ASSERT(source.fetchQuotes().status.isOk());
    }
    // 20 names, 4 per request, 2 requests per poll: polls 1-2 send 8 each, poll 3 the
    // last 4 and stops (end of the pass); poll 4 starts again at the first name.
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, host_->requests.size());
    for (const auto& request : host_->requests) {
      for (auto& title : titlesOf(request.body)) seen.push_back(title);
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{20}, seen.size());
    CPPUNIT_ASSERT_EQUAL(kAk, seen.front());
    CPPUNIT_ASSERT_EQUAL(std::string("Item 14"), seen.back());
    CPPUNIT_ASSERT(source.fetchQuotes().status.isOk());
    CPPUNIT_ASSERT_EQUAL(kAk, titlesOf(host_->requests.at(5).body).at(0));
  }

  void exhaustedRateLimitWindowStopsAndHoldsOff() {
    for (int i = 0; i < 15; ++i) host_->catalog_items.add("Item " + std::to_string(i));
    host_->settings["batch_size"] = "4";
    host_->settings["requests_per_poll"] = "5";
    host_->then(answer(200, body(row(kAk, "\"2900\"", "\"3100\"")),
                       {{"RateLimit-Limit", "6"}, {"RateLimit-Remaining", "1"}}));
    host_->then(answer(200, body(row(kAk, "\"2900\"", "\"3100\"")),
                       {{"RateLimit-Remaining", "0"}, {"RateLimit-Reset", "7"}}));
    host_->then(
        answer(200, body(row(kAk, "\"2900\"", "\"3100\"")), {{"X-RateLimit-Remaining", "5"}}));
    DmarketSource source(*host_);
    const QuoteBatch first = source.fetchQuotes();
    CPPUNIT_ASSERT(first.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, host_->requests.size());  // stopped by Remaining: 0
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, first.quotes.size());
    // Within the 7 s window: nothing is sent, and that is not a failure.
    host_->now_millis += 6000;
    const QuoteBatch held = source.fetchQuotes();
    CPPUNIT_ASSERT(held.status.isOk());
    CPPUNIT_ASSERT(held.quotes.empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, host_->requests.size());
    host_->now_millis += 1500;
    CPPUNIT_ASSERT(source.fetchQuotes().status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, host_->requests.size());  // the rest of the pass
    CPPUNIT_ASSERT_EQUAL(std::string("Item 3"), titlesOf(host_->requests.at(2).body).at(0));
  }

  void rateLimitResetAsUnixTime() {
    host_->then(answer(200, body(row(kAk, "\"2900\"", "\"3100\"")),
                       {{"RateLimit-Remaining", "0"},
                        {"RateLimit-Reset", std::to_string(host_->now_millis / 1000 + 30)}}));
    DmarketSource source(*host_);
    CPPUNIT_ASSERT(source.fetchQuotes().status.isOk());
    host_->now_millis += 29000;
    source.fetchQuotes();
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->requests.size());
    host_->now_millis += 1500;
    source.fetchQuotes();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, host_->requests.size());
  }

  void tooManyRequestsHonoursRetryAfter() {
    host_->then(answer(429, R"({"error":"too many requests"})", {{"Retry-After", "12"}}));
    DmarketSource source(*host_);
    const QuoteBatch limited = source.fetchQuotes();
    CPPUNIT_ASSERT(limited.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{12}, *limited.retry_after_seconds);
    host_->now_millis += 11000;
    CPPUNIT_ASSERT(source.fetchQuotes().status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->requests.size());
    // A 429 without Retry-After falls back to the window's reset.
    ScriptedHost other;
    other.settings["url"] = kBase;
    other.addItems({kAk});
    other.then(answer(429, "", {{"RateLimit-Reset", "4"}}));
    DmarketSource second(other);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, *second.fetchQuotes().retry_after_seconds);
    // A hostile Retry-After cannot park the source beyond an hour.
    ScriptedHost third;
    third.settings["url"] = kBase;
    third.addItems({kAk});
    third.then(answer(429, "", {{"Retry-After", "99999999"}}));
    DmarketSource hostile(third);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3600}, *hostile.fetchQuotes().retry_after_seconds);
  }

  void tooManyRequestsAfterABatchKeepsIt() {
    for (int i = 0; i < 10; ++i) host_->catalog_items.add("Item " + std::to_string(i));
    host_->settings["batch_size"] = "5";
    host_->then(answer(200, body(row(kAk, "\"2900\"", "\"3100\""))));
    host_->then(answer(429, "", {{"Retry-After", "30"}}));
    DmarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, result.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, source.cursor());  // the refused batch comes next
    host_->now_millis += 10000;
    source.fetchQuotes();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, host_->requests.size());  // still holding off
  }

  void pollReportsRowsSkipsAndTheFailedRequest() {
    // The object prices the live service sends, a row of neither form, then a 429: the
    // first batch's prices are kept, the refused request is named (docs/api.md §19).
    for (int i = 0; i < 10; ++i) host_->catalog_items.add("Item " + std::to_string(i));
    host_->settings["batch_size"] = "5";
    host_->then(answer(200, body(row(kAk, R"({"Currency":"USD","Amount":"2900"})",
                                     R"({"Currency":"USD","Amount":"3100"})") +
                                 "," +
                                 row("AWP | Asiimov (Field-Tested)", "true",
                                     R"({"Currency":"EUR","Amount":"9"})"))));
    host_->then(answer(429, "", {{"Retry-After", "30"}}));
    DmarketSource source(*host_);
    const skinpulse::sdk::PollReport report = source.poll();
    CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, report.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, report.skipped.size());  // bad_price, other_currency
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, report.failed_parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("aggregated-prices"), report.failed_parts[0].part);
    CPPUNIT_ASSERT(report.failed_parts[0].status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30}, report.retry_after_seconds.value_or(-1));
    for (const auto& quote : report.quotes) {
      CPPUNIT_ASSERT_EQUAL(kAk, quote.market_hash_name);
      CPPUNIT_ASSERT(quote.price.cents == 2900 || quote.price.cents == 3100);
    }
  }

  void serverErrorIsUnavailableAndKeepsTheCursor() {
    host_->then(answer(500, "<html>oops</html>"));
    DmarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kUnavailable);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, source.cursor());
    ScriptedHost down;
    down.settings["url"] = kBase;
    down.addItems({kAk});
    down.then(skinpulse::test::MockHttp::failure(HttpResponse::Error::kTimeout, "timed out"));
    DmarketSource timeout(down);
    CPPUNIT_ASSERT(timeout.fetchQuotes().status.code() == Status::Code::kUnavailable);
  }

  void garbageIsMalformed() {
    for (const std::string& bad :
         std::vector<std::string>{"not json", "[]", "{}", R"({"aggregatedPrices":{}})",
                                  R"({"aggregatedPrices":"x"})", std::string(100000, '[')}) {
      ScriptedHost host;
      host.settings["url"] = kBase;
      host.addItems({kAk});
      host.then(answer(200, bad));
      DmarketSource source(host);
      const QuoteBatch result = source.fetchQuotes();
      CPPUNIT_ASSERT_MESSAGE(bad.substr(0, 40), result.status.code() == Status::Code::kMalformed);
    }
  }

  void hostileRowsAreSkipped() {
    const std::string rows =
        std::string(R"(1, null, "x", {"title":""}, {"title":42,"offerBestPrice":"100"},)") +
        R"({"title":"A","offerBestPrice":"-5","offerCount":1},)" +
        R"({"title":"B","offerBestPrice":"99999999999999999999999","offerCount":1},)" +
        R"({"title":"C","offerBestPrice":true,"offerCount":1},)" +
        R"({"title":"D","offerBestPrice":"12abc","offerCount":1},)" +
        R"({"title":"E","offerBestPrice":"100","offerCount":-3},)" +
        R"({"title":"F","offerBestPrice":"100","offerCount":18446744073709551615},)" +
        R"({"title":"G","offerBestPrice":1500,"offerCount":"7"},)" + R"({"title":"H"},)" +
        row(kAk, "\"2900\"", "\"3100\"");
    host_->then(answer(200, body(rows)));
    DmarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT_MESSAGE(result.status.message(), result.status.isOk());
    // E and F keep their price with an unknown count; G's integer price and text count
    // are read; the AK gives two. Nothing else.
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, result.quotes.size());
    const MarketQuote* g = find(result, "G", PriceKind::kAsk);
    CPPUNIT_ASSERT(g);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1500}, g->price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, *g->listings);
    CPPUNIT_ASSERT(!find(result, "E", PriceKind::kAsk)->listings);
    for (const auto& quote : result.quotes) CPPUNIT_ASSERT(quote.price.cents > 0);
  }

  void oversizeMovesPastTheBatch() {
    host_->settings["batch_size"] = "2";
    host_->then(skinpulse::test::MockHttp::failure(HttpResponse::Error::kTooLarge, "too large"));
    DmarketSource source(*host_);
    CPPUNIT_ASSERT(source.fetchQuotes().status.code() == Status::Code::kTooLarge);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, source.cursor());
  }

  void decimalPricesUnderCentsRefuseTheBatch() {
    host_->then(answer(200, body(row(kAk, "\"29.05\"", "\"31.88\""))));
    DmarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kMalformed);
    CPPUNIT_ASSERT(result.status.message().find("price_unit = major") != std::string::npos);
  }

  void majorUnitReadsDollarsAndRefusesCents() {
    host_->settings["price_unit"] = "major";
    host_->then(answer(200, body(row(kAk, "\"29.05\"", "\"31.885\""))));
    DmarketSource source(*host_);
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2905}, find(result, kAk, PriceKind::kBid)->price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3189}, find(result, kAk, PriceKind::kAsk)->price.cents);
    // Whole numbers with a median of thousands of "dollars" are cents: refused.
    std::string rows;
    for (int i = 0; i < 6; ++i) {
      rows += (i ? "," : "") + row("Item " + std::to_string(i), "\"2900\"", "\"3100\"");
    }
    const auto parsed = parseAggregated(body(rows), PriceUnit::kMajor);
    CPPUNIT_ASSERT(!parsed.ok && parsed.unit_mismatch);
    CPPUNIT_ASSERT(parseAggregated(body(rows), PriceUnit::kCents).ok);
  }

  void signedSalesCarryAVerifiableSignature() {
    host_->settings["secret_key"] = kSeed + kPublic;
    host_->settings["sales_per_poll"] = "1";
    host_->then(answer(200, fixture("dmarket_aggregated_prices_shape.json")));
    host_->then(answer(200, fixture("dmarket_last_sales_shape.json")));
    DmarketSource source(*host_);
    CPPUNIT_ASSERT(source.signedSales());
    const QuoteBatch result = source.fetchQuotes();
    CPPUNIT_ASSERT_MESSAGE(result.status.message(), result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, host_->requests.size());
    const auto& request = host_->requests[1];
    CPPUNIT_ASSERT_EQUAL(std::string("GET"), request.method);
    const std::string path =
        "/trade-aggregator/v1/last-sales?gameId=a8db&title=AK-47%20%7C%20Redline%20%28Field-"
        "Tested%29&limit=20";
    CPPUNIT_ASSERT_EQUAL(kBase + path, request.url);
    std::map<std::string, std::string> headers(request.headers.begin(), request.headers.end());
    CPPUNIT_ASSERT_EQUAL(kPublic, headers["X-Api-Key"]);
    const std::string date = headers["X-Sign-Date"];
    CPPUNIT_ASSERT_EQUAL(std::to_string(host_->now_millis / 1000), date);
    const std::string sign = headers["X-Request-Sign"];
    CPPUNIT_ASSERT_EQUAL(std::string("dmar ed25519 "), sign.substr(0, 13));
    CPPUNIT_ASSERT(verifyEd25519(kPublic, "GET" + path + date, sign.substr(13)));
    // Three sales of the AK, kind sale, at their own times.
    std::size_t sales = 0;
    for (const auto& quote : result.quotes) {
      if (quote.kind != PriceKind::kSale) continue;
      ++sales;
      CPPUNIT_ASSERT_EQUAL(kAk, quote.market_hash_name);
      CPPUNIT_ASSERT(quote.observed_at && *quote.observed_at >= 1795331100);
      CPPUNIT_ASSERT(quote.price.cents >= 1000 && quote.price.cents <= 6000);
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, sales);
    // The secret never reaches the log.
    CPPUNIT_ASSERT(host_->allLogs().find(kSeed.substr(0, 16)) == std::string::npos);
    // The next poll asks for the next title's sales.
    source.fetchQuotes();
    CPPUNIT_ASSERT(host_->requests.at(3).url.find("AWP%20%7C%20Asiimov") != std::string::npos);
  }

  void noKeyNoSales() {
    host_->then(answer(200, fixture("dmarket_aggregated_prices_shape.json")));
    DmarketSource source(*host_);
    CPPUNIT_ASSERT(!source.signedSales());
    source.fetchQuotes();
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->requests.size());
    for (const auto& [name, value] : host_->requests[0].headers) {
      CPPUNIT_ASSERT(name != "X-Request-Sign" && name != "X-Api-Key");
    }
  }

  void badConfigurationIsRefused() {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"price_unit", "milli"},   {"batch_size", "101"},    {"batch_size", "0"},
        {"game", "A8DB; drop"},    {"secret_key", "nothex"}, {"public_key", kPublic},
        {"requests_per_poll", "x"}};
    for (const auto& [key, value] : bad) {
      ScriptedHost host;
      host.settings["url"] = kBase;
      host.settings[key] = value;
      CPPUNIT_ASSERT_THROW_MESSAGE(key, DmarketSource source(host), std::invalid_argument);
    }
    ScriptedHost mismatch;
    mismatch.settings["url"] = kBase;
    mismatch.settings["secret_key"] = kSeed;
    mismatch.settings["public_key"] = std::string(64, 'a');
    CPPUNIT_ASSERT_THROW(DmarketSource source(mismatch), std::invalid_argument);
  }

 private:
  std::unique_ptr<ScriptedHost> host_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(DmarketSourceTest);
