// Candles (docs/api.md §10): OHLCV folding, window/interval validation, the reference
// source when none is asked for, and the envelope.

#include "CandlesMemoryStore.hpp"
#include "http/Dispatcher.hpp"
#include "metrics/Candles.hpp"
#include "metrics/CandlesApi.hpp"
#include "metrics/CandlesWindows.hpp"
#include "mocks/TestPricePolicy.hpp"

#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;

Poco::JSON::Object::Ptr parse(std::string_view text) {
  return Poco::JSON::Parser().parse(std::string(text)).extract<Poco::JSON::Object::Ptr>();
}

}  // namespace

class CandlesApiTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CandlesApiTest);
  CPPUNIT_TEST(foldsOhlcvPerInterval);
  CPPUNIT_TEST(skipsPointsBeforeTheWindowAndOmitsEmptyBuckets);
  CPPUNIT_TEST(windowsAndIntervals);
  CPPUNIT_TEST(servesTheReferenceSourceByDefault);
  CPPUNIT_TEST(servesANamedSourceAndCoarserIntervals);
  CPPUNIT_TEST(refusesBadParametersAsProblems);
  CPPUNIT_TEST(noPricesMeansNullSourceAndNoCandles);
  CPPUNIT_TEST(unknownItemIs404);
  CPPUNIT_TEST(cachedCandlesEqualUncachedWhileTimePassesAndPointsArrive);
  CPPUNIT_TEST_SUITE_END();

  catalog::Catalog catalog_;
  prices::LatestPrices latest_;
  test::CandlesMemoryStore prices_;
  prices::PricePolicy policy_ = test::pricePolicy({"alpha", "beta"});
  std::unique_ptr<metrics::CandlesApi> api_;
  http::Router router_;

  static http::Response get(http::Router& router, const std::string& target) {
    http::Request request;
    request.method = "GET";
    const auto q = target.find('?');
    request.path = target.substr(0, q);
    if (q != std::string::npos) {
      request.query = target.substr(q + 1);
      std::string rest = request.query;
      while (!rest.empty()) {
        const auto amp = rest.find('&');
        const std::string pair = rest.substr(0, amp);
        const auto eq = pair.find('=');
        request.query_params.emplace_back(pair.substr(0, eq),
                                          eq == std::string::npos ? "" : pair.substr(eq + 1));
        rest = amp == std::string::npos ? "" : rest.substr(amp + 1);
      }
    }
    http::Response response;
    http::Dispatcher(router).dispatch(request, response);
    return response;
  }
  http::Response get(const std::string& target) { return get(router_, target); }

 public:
  void setUp() override {
    store::ItemRecord a;
    a.id = 1;
    a.market_hash_name = "AK-47 | Redline (Field-Tested)";
    store::ItemRecord b;
    b.id = 2;
    b.market_hash_name = "AWP | Asiimov (Field-Tested)";
    catalog_.reset({a, b});
    prices_ = test::CandlesMemoryStore();
    // Item 1: "alpha" every 20 s for the last 10 minutes, "beta" twice.
    std::vector<store::PricePoint> points;
    for (std::int64_t t = kNow - 600; t < kNow; t += 20) {
      points.push_back(store::PricePoint{1, "alpha", t, 1000 + (t / 20) % 7, 2});
    }
    const auto last_alpha = points.back();
    points.push_back(store::PricePoint{1, "beta", kNow - 100, 990, 1});
    points.push_back(store::PricePoint{1, "beta", kNow - 50, 995, 1});
    prices_.insert(points);
    std::vector<store::PriceStore::Latest> latest;
    latest.push_back(store::PriceStore::Latest{last_alpha, last_alpha.time - 20});
    latest.push_back(store::PriceStore::Latest{points.back(), kNow - 100});
    latest_.reset(latest);
    router_ = http::Router();
    api_ = std::make_unique<metrics::CandlesApi>(catalog_, latest_, prices_, policy_,
                                                 metrics::CandlesApiConfig{}, [] { return kNow; });
    api_->registerRoutes(router_);
  }

  void foldsOhlcvPerInterval() {
    const std::vector<store::PricePoint> points = {
        {1, "s", 120, 10, 1}, {1, "s", 130, 30, 2}, {1, "s", 150, 5, 3},
        {1, "s", 179, 20, 4}, {1, "s", 185, 7, 5},
    };
    const auto bars = metrics::candlesFromPoints(points, 60, 0);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, bars.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{120}, bars[0].start);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, bars[0].open);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30}, bars[0].high);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, bars[0].low);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{20}, bars[0].close);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, bars[0].volume);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, bars[0].samples);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{180}, bars[1].start);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, bars[1].open);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, bars[1].close);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, bars[1].samples);
  }

  void skipsPointsBeforeTheWindowAndOmitsEmptyBuckets() {
    const std::vector<store::PricePoint> points = {
        {1, "s", 50, 1, 0}, {1, "s", 3600, 2, 0}, {1, "s", 3 * 3600 + 5, 3, 0}};
    const auto bars = metrics::candlesFromPoints(points, 3600, 3600);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, bars.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3600}, bars[0].start);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3 * 3600}, bars[1].start);
  }

  void windowsAndIntervals() {
    CPPUNIT_ASSERT(metrics::candleWindow("30d").has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30 * 86400}, metrics::candleWindow("30d")->seconds);
    CPPUNIT_ASSERT(metrics::candleWindow("7d")->default_interval == "1h");
    CPPUNIT_ASSERT(!metrics::candleWindow("2d").has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{86400}, *metrics::candleIntervalSeconds("1d"));
    CPPUNIT_ASSERT(!metrics::candleIntervalSeconds("15m").has_value());
  }

  void servesTheReferenceSourceByDefault() {
    const auto response = get("/api/v1/items/1/candles?window=1h");
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    const auto body = parse(response.bodyView());
    CPPUNIT_ASSERT_EQUAL(std::string("alpha"), body->getValue<std::string>("source"));
    CPPUNIT_ASSERT_EQUAL(std::string("1h"), body->getValue<std::string>("window"));
    CPPUNIT_ASSERT_EQUAL(std::string("1m"), body->getValue<std::string>("interval"));
    CPPUNIT_ASSERT_EQUAL(1, body->getValue<int>("item_id"));
    const auto candles = body->getArray("candles");
    CPPUNIT_ASSERT(candles->size() >= 10 && candles->size() <= 11);  // 600 s of 1 m bars
    const auto first = candles->getObject(0);
    for (const char* key : {"time", "open", "high", "low", "close", "volume", "samples"}) {
      CPPUNIT_ASSERT_MESSAGE(key, first->has(key));
    }
    CPPUNIT_ASSERT(first->getValue<std::string>("time").back() == 'Z');
    std::int64_t samples = 0;
    for (std::size_t i = 0; i < candles->size(); ++i) {
      samples += candles->getObject(static_cast<unsigned>(i))->getValue<std::int64_t>("samples");
    }
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30}, samples);
  }

  void servesANamedSourceAndCoarserIntervals() {
    auto body = parse(get("/api/v1/items/1/candles?window=1h&interval=1h&source=beta").bodyView());
    CPPUNIT_ASSERT_EQUAL(std::string("beta"), body->getValue<std::string>("source"));
    CPPUNIT_ASSERT_EQUAL(std::string("1h"), body->getValue<std::string>("interval"));
    const auto candles = body->getArray("candles");
    std::int64_t samples = 0;
    for (std::size_t i = 0; i < candles->size(); ++i) {
      samples += candles->getObject(static_cast<unsigned>(i))->getValue<std::int64_t>("samples");
    }
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, samples);
    CPPUNIT_ASSERT_EQUAL(200, get("/api/v1/items/1/candles?window=30d").status);
    CPPUNIT_ASSERT_EQUAL(200, get("/api/v1/items/1/candles?window=24h&interval=1d").status);
    body = parse(get("/api/v1/items/1/candles").bodyView());
    CPPUNIT_ASSERT_EQUAL(std::string("24h"), body->getValue<std::string>("window"));
    CPPUNIT_ASSERT_EQUAL(std::string("5m"), body->getValue<std::string>("interval"));
  }

  void refusesBadParametersAsProblems() {
    for (const char* target :
         {"/api/v1/items/1/candles?window=2h", "/api/v1/items/1/candles?window=7d&interval=5m",
          "/api/v1/items/1/candles?window=30d&interval=1h", "/api/v1/items/1/candles?interval=2m",
          "/api/v1/items/1/candles?window=1h&window=24h", "/api/v1/items/x/candles",
          "/api/v1/items/1/candles?currency=XXX", "/api/v1/items/1/candles?source="}) {
      const auto response = get(target);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(target, 400, response.status);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(target, std::string("application/problem+json"),
                                   response.content_type.substr(0, 24));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(target, std::string("invalid_parameter"),
                                   parse(response.bodyView())->getValue<std::string>("code"));
    }
  }

  void noPricesMeansNullSourceAndNoCandles() {
    const auto response = get("/api/v1/items/2/candles?window=7d");
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    const auto body = parse(response.bodyView());
    CPPUNIT_ASSERT(body->isNull("source"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, body->getArray("candles")->size());
  }

  void unknownItemIs404() {
    const auto response = get("/api/v1/items/99/candles");
    CPPUNIT_ASSERT_EQUAL(404, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("item_not_found"),
                         parse(response.bodyView())->getValue<std::string>("code"));
  }

  void cachedCandlesEqualUncachedWhileTimePassesAndPointsArrive() {
    std::int64_t now = kNow;
    prices::HistoryCache cache(prices::HistoryCacheOptions{1 << 20, 60});
    const metrics::CandlesApiConfig config{};
    metrics::CandlesApi cached(
        catalog_, latest_, prices_, policy_, config, [&] { return now; }, &cache);
    metrics::CandlesApi uncached(catalog_, latest_, prices_, policy_, config, [&] { return now; });
    http::Router cached_router;
    http::Router uncached_router;
    cached.registerRoutes(cached_router);
    uncached.registerRoutes(uncached_router);
    const std::vector<std::string> targets = {
        "/api/v1/items/1/candles?window=1h", "/api/v1/items/1/candles?window=1h&interval=5m",
        "/api/v1/items/1/candles?window=1h&interval=1h&source=beta",
        "/api/v1/items/1/candles?window=24h", "/api/v1/items/2/candles"};
    auto same = [&] {
      for (const auto& target : targets) {
        CPPUNIT_ASSERT_EQUAL_MESSAGE(target, std::string(get(uncached_router, target).bodyView()),
                                     std::string(get(cached_router, target).bodyView()));
      }
    };
    // The window's lower bound passes the points one by one: the first bar changes.
    for (; now < kNow + 700; now += 7) same();
    CPPUNIT_ASSERT(cache.stats().hits > 0);
    // A cycle stores points (and moves the reference source to beta, the only one with
    // two points in the last day); its observer invalidates the item.
    now = kNow;
    prices_.insert({store::PricePoint{1, "beta", kNow - 10, 1010, 3}});
    latest_.reset(
        {store::PriceStore::Latest{store::PricePoint{1, "beta", kNow - 10, 1010, 3}, kNow - 50}});
    cache.invalidate({1});
    same();
    const auto body = parse(get(cached_router, "/api/v1/items/1/candles?window=1h").bodyView());
    CPPUNIT_ASSERT_EQUAL(std::string("beta"), body->getValue<std::string>("source"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CandlesApiTest);
