// GET /api/v1/items/:id/history through the history cache (docs/api.md §3): the cached
// body is byte for byte what the uncached path sends at the same moment, while time
// passes and after the item's points change; the key holds window and source.

#include "http/Dispatcher.hpp"
#include "items/ItemsApi.hpp"
#include "mocks/NullPriceStore.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>

using namespace skinpulse;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;

class MemoryPrices final : public test::NullPriceStore {
 public:
  std::vector<store::PricePoint> points;
  int reads = 0;
  std::vector<store::PricePoint> history(std::int64_t item_id, std::int64_t since,
                                         const std::optional<std::string>& source) override {
    ++reads;
    std::vector<store::PricePoint> out;
    for (const auto& p : points) {
      if (p.item_id == item_id && p.time > since && (!source || p.source == *source)) {
        out.push_back(p);
      }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const store::PricePoint& a, const store::PricePoint& b) {
                       return a.time != b.time ? a.time < b.time : a.source < b.source;
                     });
    return out;
  }
};

}  // namespace

class ItemsApiTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ItemsApiTest);
  CPPUNIT_TEST(historyIsServedFromTheCacheUntilTheItemChanges);
  CPPUNIT_TEST(historyKeyHoldsWindowAndSource);
  CPPUNIT_TEST(cachedHistoryEqualsUncachedWhileTimePasses);
  CPPUNIT_TEST_SUITE_END();

  catalog::Catalog catalog_;
  prices::LatestPrices latest_;
  MemoryPrices prices_;
  prices::PricePolicy policy_;  ///< no sources configured: the defaults of docs/api.md §12
  std::int64_t now_ = kNow;
  std::unique_ptr<prices::HistoryCache> cache_;
  std::unique_ptr<items::ItemsApi> cached_;
  std::unique_ptr<items::ItemsApi> uncached_;
  http::Router cached_router_;
  http::Router uncached_router_;

  static std::string get(http::Router& router, const std::string& path,
                         const std::string& query = "") {
    http::Request request;
    request.method = "GET";
    request.path = path;
    request.query = query;
    std::string rest = query;
    while (!rest.empty()) {
      const auto amp = rest.find('&');
      const std::string pair = rest.substr(0, amp);
      const auto eq = pair.find('=');
      request.query_params.emplace_back(pair.substr(0, eq),
                                        eq == std::string::npos ? "" : pair.substr(eq + 1));
      rest = amp == std::string::npos ? "" : rest.substr(amp + 1);
    }
    http::Response response;
    http::Dispatcher(router).dispatch(request, response);
    return std::to_string(response.status) + " " + std::string(response.bodyView());
  }

  std::string cached(const std::string& query = "") {
    return get(cached_router_, "/api/v1/items/1/history", query);
  }
  std::string uncached(const std::string& query = "") {
    return get(uncached_router_, "/api/v1/items/1/history", query);
  }

 public:
  void setUp() override {
    store::ItemRecord a;
    a.id = 1;
    a.market_hash_name = "AK-47 | Redline (Field-Tested)";
    store::ItemRecord b;
    b.id = 2;
    b.market_hash_name = "AWP | Asiimov (Field-Tested)";
    catalog_.reset({a, b});
    prices_.points.clear();
    // Item 1: "alpha" every 10 minutes for two days, "beta" every hour for the last day.
    for (std::int64_t t = kNow - 2 * 86400; t < kNow; t += 600) {
      prices_.points.push_back(store::PricePoint{1, "alpha", t, 1000 + (t / 600) % 13, 1});
    }
    for (std::int64_t t = kNow - 86400 + 1800; t < kNow; t += 3600) {
      prices_.points.push_back(store::PricePoint{1, "beta", t, 990, 2});
    }
    prices_.points.push_back(store::PricePoint{2, "alpha", kNow - 60, 5, 1});
    now_ = kNow;
    cache_ = std::make_unique<prices::HistoryCache>(prices::HistoryCacheOptions{1 << 20, 86400});
    auto clock = [this] { return now_; };
    cached_router_ = http::Router();
    uncached_router_ = http::Router();
    cached_ = std::make_unique<items::ItemsApi>(catalog_, latest_, prices_, policy_,
                                                items::ItemsApiOptions{}, cache_.get(), clock);
    uncached_ = std::make_unique<items::ItemsApi>(catalog_, latest_, prices_, policy_,
                                                  items::ItemsApiOptions{}, nullptr, clock);
    cached_->registerRoutes(cached_router_);
    uncached_->registerRoutes(uncached_router_);
  }

  void historyIsServedFromTheCacheUntilTheItemChanges() {
    const std::string first = cached();
    CPPUNIT_ASSERT_EQUAL(0, first.compare(0, 5, "200 ["));
    CPPUNIT_ASSERT_EQUAL(1, prices_.reads);
    CPPUNIT_ASSERT_EQUAL(first, cached());
    CPPUNIT_ASSERT_EQUAL(first, cached("window=24h"));  // the default, the same key
    CPPUNIT_ASSERT_EQUAL(1, prices_.reads);
    // A cycle stores a point for item 1 and its observer invalidates the item.
    prices_.points.push_back(store::PricePoint{1, "alpha", kNow, 4242, 1});
    cache_->invalidate({1});
    const std::string after = cached();
    CPPUNIT_ASSERT(after != first);
    CPPUNIT_ASSERT(after.find("4242") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(uncached(), after);
    // Another item's cycle leaves item 1 cached.
    const int reads = prices_.reads;
    cache_->invalidate({2});
    CPPUNIT_ASSERT_EQUAL(after, cached());
    CPPUNIT_ASSERT_EQUAL(reads, prices_.reads);
    // A miss for an unknown item or a bad parameter is a problem, never cached.
    CPPUNIT_ASSERT_EQUAL(0, get(cached_router_, "/api/v1/items/99/history").compare(0, 3, "404"));
    CPPUNIT_ASSERT_EQUAL(0, cached("window=2d").compare(0, 3, "400"));
  }

  void historyKeyHoldsWindowAndSource() {
    for (const char* query : {"", "window=1h", "window=7d", "source=beta", "window=7d&source=beta",
                              "source=alpha", "source=gamma"}) {
      CPPUNIT_ASSERT_EQUAL(uncached(query), cached(query));
    }
    const int reads = prices_.reads;
    for (const char* query : {"", "window=1h", "window=7d", "source=beta", "window=7d&source=beta",
                              "source=alpha", "source=gamma"}) {
      CPPUNIT_ASSERT_EQUAL(uncached(query), cached(query));
    }
    // Only the uncached API read the store the second time round.
    CPPUNIT_ASSERT_EQUAL(reads + 7, prices_.reads);
  }

  void cachedHistoryEqualsUncachedWhileTimePasses() {
    // Every 37 s for two hours, with the cache filled once at the start: the 24h window's
    // lower bound passes points of both sources, and each time the body is refilled.
    for (const char* query : {"", "source=beta", "window=1h"}) {
      for (now_ = kNow; now_ < kNow + 7200; now_ += 37) {
        CPPUNIT_ASSERT_EQUAL(uncached(query), cached(query));
      }
    }
    // Far fewer store reads than requests: one per point leaving the window (the TTL is a
    // day here).
    const auto stats = cache_->stats();
    CPPUNIT_ASSERT(stats.hits > 5 * stats.fills);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ItemsApiTest);
