// MetricsEngine: reference source choice (§3.1), objects and rankings as served, the
// third-party metric field, rebuild from the store, duplicates.

#include "MetricPlugins.hpp"
#include "ReferenceMetrics.hpp"
#include "metrics/MetricsEngine.hpp"
#include "mocks/NullPriceStore.hpp"
#include "mocks/TestPricePolicy.hpp"

#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

#include <map>

using namespace skinpulse;
using namespace skinpulse::test;
using metrics::MetricsEngine;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;

class ChunkedStore final : public test::NullPriceStore {
 public:
  explicit ChunkedStore(std::vector<store::PricePoint> points) : points_(std::move(points)) {}
  std::vector<store::PricePoint> pointsSince(std::int64_t since) override {
    std::vector<store::PricePoint> out;
    for (const auto& p : points_) {
      if (p.time > since) out.push_back(p);
    }
    return out;
  }
  void scanSince(std::int64_t since, std::size_t chunk, const PointChunkVisitor& visit) override {
    since_ = since;
    const auto all = pointsSince(since);
    for (std::size_t i = 0; i < all.size(); i += chunk) {
      visit(std::vector<store::PricePoint>(
          all.begin() + static_cast<std::ptrdiff_t>(i),
          all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), i + chunk))));
    }
  }

  // The newest point of each series before `before`, as the SQL stores answer it.
  std::vector<store::PricePoint> newestBefore(std::int64_t before) override {
    std::map<std::pair<std::int64_t, std::string>, store::PricePoint> newest;
    for (const auto& p : points_) {
      if (p.time >= before) continue;
      auto& slot = newest[{p.item_id, p.source}];
      if (slot.source.empty() || p.time > slot.time) slot = p;
    }
    std::vector<store::PricePoint> out;
    for (const auto& [key, p] : newest) out.push_back(p);
    return out;
  }

  std::int64_t since_ = 0;

 private:
  std::vector<store::PricePoint> points_;
};

Poco::JSON::Object::Ptr parse(std::string_view text) {
  CPPUNIT_ASSERT_MESSAGE("no object", !text.empty());
  return Poco::JSON::Parser().parse(std::string(text)).extract<Poco::JSON::Object::Ptr>();
}

Poco::JSON::Array::Ptr parseArray(const std::string& text) {
  return Poco::JSON::Parser().parse(text).extract<Poco::JSON::Array::Ptr>();
}

}  // namespace

class MetricsEngineTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MetricsEngineTest);
  CPPUNIT_TEST(testObjectShapeAndValues);
  CPPUNIT_TEST(testTwoSourcesAtDifferentLevelsNeverMix);
  CPPUNIT_TEST(testFewerThanTwoPoints);
  CPPUNIT_TEST(testRankingOrderTiesAndLimit);
  CPPUNIT_TEST(testThirdPartyMetricAppearsAsAField);
  CPPUNIT_TEST(testRebuildEqualsIncrementalUpdates);
  CPPUNIT_TEST(testRebuildFindsAWeekOldReferenceOlderThanItsHistory);
  CPPUNIT_TEST(testRepeatedPointsCountOnce);
  CPPUNIT_TEST(testWindowsSlideWithoutNewPoints);
  CPPUNIT_TEST(testAPreparedCycleShowsOnlyOnCommit);
  CPPUNIT_TEST(testAnAbandonedCycleIsForgotten);
  CPPUNIT_TEST_SUITE_END();

 public:
  void tearDown() override {
    plugins_.clear();
    policies_.clear();
  }

  void setUp() override {
    std::vector<store::ItemRecord> items;
    for (std::int64_t id = 1; id <= 20; ++id) {
      items.push_back(store::ItemRecord{id, "Item " + std::to_string(id), "Rifle", "Skin", "Covert",
                                        false, "", 0});
    }
    catalog_.reset(items);
  }

  std::unique_ptr<MetricsEngine> engine(std::vector<std::string> configured = {},
                                        std::vector<std::string> enabled = {"a", "b"},
                                        const std::vector<std::string>& extra = {}) {
    plugins_.push_back(std::make_unique<MetricPlugins>(extra));
    policies_.push_back(std::make_unique<prices::PricePolicy>(
        test::pricePolicy(enabled, true, std::move(configured))));
    return std::make_unique<MetricsEngine>(catalog_, latest_, plugins_.back()->set(),
                                           *policies_.back());
  }

  void feed(MetricsEngine& e, const std::vector<store::PricePoint>& points,
            std::int64_t now = kNow) {
    latest_.apply(points);
    e.apply(points, now);
    e.recompute(now);
  }

  void testObjectShapeAndValues() {
    auto e = engine();
    const std::vector<RawPoint> raw = {
        {kNow - 7200, 150}, {kNow - 1200, 100}, {kNow - 600, 200}, {kNow, 300}};
    std::vector<store::PricePoint> points;
    for (const auto& r : raw) points.push_back({3, "a", r.time, r.price, 1});
    feed(*e, points);
    const auto snapshot = e->snapshot();
    CPPUNIT_ASSERT_EQUAL(kNow, snapshot->computedAt());
    const auto o = parse(snapshot->volatility(3, "1h"));
    CPPUNIT_ASSERT_EQUAL(3, o->getValue<int>("item_id"));
    CPPUNIT_ASSERT_EQUAL(std::string("1h"), o->getValue<std::string>("window"));
    CPPUNIT_ASSERT_EQUAL(std::string("a"), o->getValue<std::string>("source"));
    CPPUNIT_ASSERT_EQUAL(3, o->getValue<int>("samples"));
    CPPUNIT_ASSERT_EQUAL(std::string("2027-01-15T08:00:00Z"),
                         o->getValue<std::string>("computed_at"));
    const auto r = referenceMetrics(raw, kNow, 3600, 60);
    CPPUNIT_ASSERT(close(r.stddev, o->getValue<double>("rolling_stddev")));
    CPPUNIT_ASSERT(close(r.percent_change, o->getValue<double>("percent_change")));
    CPPUNIT_ASSERT(close(r.cov, o->getValue<double>("coefficient_of_variation")));
    CPPUNIT_ASSERT(close(r.trend_per_hour, o->getValue<double>("trend_score")));
    const auto bands = o->getObject("bollinger");
    CPPUNIT_ASSERT(close(r.upper, bands->getValue<double>("upper")));
    CPPUNIT_ASSERT(close(r.mean, bands->getValue<double>("middle")));
    CPPUNIT_ASSERT(close(r.lower, bands->getValue<double>("lower")));
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, o->size());
    // The 24h and 7d objects include the older point.
    CPPUNIT_ASSERT_EQUAL(4, parse(snapshot->volatility(3, "24h"))->getValue<int>("samples"));
    CPPUNIT_ASSERT_EQUAL(4,
                         parse(snapshot->volatility(3, std::size_t{2}))->getValue<int>("samples"));
    // No data: no pre-rendered object; the empty one has zeros and a null source.
    CPPUNIT_ASSERT(snapshot->volatility(4, "24h").empty());
    CPPUNIT_ASSERT(snapshot->volatility(3, "2h").empty());
    const auto none = parse(snapshot->emptyVolatility(4, 1));
    CPPUNIT_ASSERT(none->isNull("source"));
    CPPUNIT_ASSERT_EQUAL(0, none->getValue<int>("samples"));
    CPPUNIT_ASSERT_EQUAL(0.0, none->getObject("bollinger")->getValue<double>("upper"));
    CPPUNIT_ASSERT_EQUAL(4, none->getValue<int>("item_id"));
  }

  void testTwoSourcesAtDifferentLevelsNeverMix() {
    std::vector<store::PricePoint> points;
    for (std::int64_t i = 0; i < 10; ++i) {
      points.push_back({1, "a", kNow - 3000 + i * 300, 1000 + i, 1});
      points.push_back({1, "b", kNow - 3000 + i * 300 + 5, 5000 + 3 * i, 1});
    }
    {
      auto e = engine();  // enabled a, b: a first
      feed(*e, points);
      const auto o = parse(e->snapshot()->volatility(1, "1h"));
      CPPUNIT_ASSERT_EQUAL(std::string("a"), o->getValue<std::string>("source"));
      CPPUNIT_ASSERT(close(1004.5, o->getObject("bollinger")->getValue<double>("middle")));
      CPPUNIT_ASSERT_EQUAL(10, o->getValue<int>("samples"));
    }
    {
      auto e = engine({"b", "a"});  // [metrics] reference_sources = b, a
      feed(*e, points);
      const auto o = parse(e->snapshot()->volatility(1, "1h"));
      CPPUNIT_ASSERT_EQUAL(std::string("b"), o->getValue<std::string>("source"));
      CPPUNIT_ASSERT(close(5013.5, o->getObject("bollinger")->getValue<double>("middle")));
      // The ranking's current_price follows the same reference source (24h rule).
      const auto ranking = parseArray(e->snapshot()->rankingBody(1, 20));
      const auto entry = ranking->getObject(0);
      CPPUNIT_ASSERT_EQUAL(5027, entry->getValue<int>("current_price"));
      CPPUNIT_ASSERT_EQUAL(std::string("b"), entry->getValue<std::string>("source"));
    }
    {
      // Only the second source has two points in the hour: it is the reference there,
      // while the first stays the reference for 24h.
      std::vector<store::PricePoint> uneven = {{2, "a", kNow - 80000, 100, 1},
                                               {2, "a", kNow - 70000, 110, 1},
                                               {2, "b", kNow - 1000, 900, 1},
                                               {2, "b", kNow - 500, 910, 1}};
      auto e = engine();
      feed(*e, uneven);
      CPPUNIT_ASSERT_EQUAL(
          std::string("b"),
          parse(e->snapshot()->volatility(2, "1h"))->getValue<std::string>("source"));
      CPPUNIT_ASSERT_EQUAL(
          std::string("a"),
          parse(e->snapshot()->volatility(2, "24h"))->getValue<std::string>("source"));
    }
  }

  void testFewerThanTwoPoints() {
    auto e = engine();
    feed(*e, {{5, "b", kNow - 100, 700, 1},
              {5, "a", kNow - 50000, 650, 1},
              {6, "a", kNow - 100, 10, 1},
              {6, "b", kNow - 90, 11, 1}});
    const auto snapshot = e->snapshot();
    // Item 5, 1h: only b has a point → source b, samples 1, all values 0.
    const auto o = parse(snapshot->volatility(5, "1h"));
    CPPUNIT_ASSERT_EQUAL(std::string("b"), o->getValue<std::string>("source"));
    CPPUNIT_ASSERT_EQUAL(1, o->getValue<int>("samples"));
    for (const char* name :
         {"rolling_stddev", "percent_change", "coefficient_of_variation", "trend_score"}) {
      CPPUNIT_ASSERT_EQUAL(0.0, o->getValue<double>(name));
    }
    CPPUNIT_ASSERT_EQUAL(0.0, o->getObject("bollinger")->getValue<double>("middle"));
    // Item 6, 1h: one point each → the tie goes to the reference order (a first).
    CPPUNIT_ASSERT_EQUAL(std::string("a"),
                         parse(snapshot->volatility(6, "1h"))->getValue<std::string>("source"));
    // Neither is ranked.
    CPPUNIT_ASSERT_EQUAL(std::string("[]"), snapshot->rankingBody(0, 100));
    // Item 5 over 24h: a and b have one point each → not ranked either.
    CPPUNIT_ASSERT_EQUAL(1, parse(snapshot->volatility(5, "24h"))->getValue<int>("samples"));
  }

  void testRankingOrderTiesAndLimit() {
    auto e = engine();
    std::vector<store::PricePoint> points;
    // Items 1..8: cov grows with the item's swing; items 9 and 10 tie with item 8.
    for (std::int64_t id = 1; id <= 10; ++id) {
      const std::int64_t swing = std::min<std::int64_t>(id, 8) * 10;
      points.push_back({id, "a", kNow - 2000, 1000 - swing, 1});
      points.push_back({id, "a", kNow - 1000, 1000 + swing, 1});
    }
    points.push_back({11, "a", kNow - 1000, 5, 1});  // one point: never ranked
    feed(*e, points);
    const auto snapshot = e->snapshot();
    const auto ranking = parseArray(snapshot->rankingBody(1, 100));
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, ranking->size());
    const std::vector<int> order = {8, 9, 10, 7, 6, 5, 4, 3, 2, 1};
    for (std::size_t i = 0; i < order.size(); ++i) {
      const auto entry = ranking->getObject(static_cast<unsigned>(i));
      CPPUNIT_ASSERT_EQUAL(order[i], entry->getValue<int>("item_id"));
      const double swing = std::min(order[i], 8) * 10;
      CPPUNIT_ASSERT(close(swing / 1000.0 * 100.0, entry->getValue<double>("volatility_score")));
      CPPUNIT_ASSERT(
          close(2 * swing / (1000.0 - swing) * 100.0, entry->getValue<double>("percent_change")));
      CPPUNIT_ASSERT_EQUAL(static_cast<int>(1000 + swing), entry->getValue<int>("current_price"));
      CPPUNIT_ASSERT_EQUAL("Item " + std::to_string(order[i]),
                           entry->getValue<std::string>("market_hash_name"));
      CPPUNIT_ASSERT_EQUAL(std::size_t{6}, entry->size());
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, parseArray(snapshot->rankingBody(1, 3))->size());
    CPPUNIT_ASSERT_EQUAL(
        8, parseArray(snapshot->rankingBody(1, 1))->getObject(0)->getValue<int>("item_id"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, snapshot->ranking(0).size());
  }

  void testThirdPartyMetricAppearsAsAField() {
    auto e = engine({}, {"a"}, {"range"});
    feed(*e, {{7, "a", kNow - 1000, 400, 1},
              {7, "a", kNow - 500, 600, 1},
              {7, "a", kNow - 100, 500, 1}});
    const auto o = parse(e->snapshot()->volatility(7, "1h"));
    const auto range = o->getObject("price_range");
    CPPUNIT_ASSERT(range);
    CPPUNIT_ASSERT_EQUAL(200.0, range->getValue<double>("absolute"));
    CPPUNIT_ASSERT(close(0.4, range->getValue<double>("relative")));
    CPPUNIT_ASSERT(o->has("rolling_stddev"));
    CPPUNIT_ASSERT(parse(e->snapshot()->emptyVolatility(1, 0))->getObject("price_range"));
  }

  void testRebuildEqualsIncrementalUpdates() {
    std::vector<store::PricePoint> points;
    for (std::int64_t id = 1; id <= 6; ++id) {
      for (std::int64_t t = kNow - 9 * 86400; t <= kNow; t += 1800 + id * 7) {
        points.push_back({id, id % 2 ? "a" : "b", t, 1000 * id + (t / 1800) % 17, 1});
      }
    }
    std::sort(
        points.begin(), points.end(), [](const store::PricePoint& x, const store::PricePoint& y) {
          return std::tie(x.item_id, x.source, x.time) < std::tie(y.item_id, y.source, y.time);
        });
    ChunkedStore store(points);
    auto rebuilt = engine();
    rebuilt->rebuild(store, kNow);
    CPPUNIT_ASSERT_EQUAL(kNow - MetricsEngine::kHistorySeconds, store.since_);
    auto incremental = engine();
    feed(*incremental, points);
    for (std::int64_t id = 1; id <= 6; ++id) {
      for (std::size_t w = 0; w < metrics::kWindowCount; ++w) {
        CPPUNIT_ASSERT_EQUAL(std::string(incremental->snapshot()->volatility(id, w)),
                             std::string(rebuilt->snapshot()->volatility(id, w)));
      }
    }
  }

  void testRebuildFindsAWeekOldReferenceOlderThanItsHistory() {
    // The item last traded 20 days ago at 100, then twice inside the week. p_ref of the
    // 7d window is the 100 (the newest point at or before now - 7d), not the oldest
    // point inside the window: +60 %, not +6.7 %. The rebuild reads only the last
    // kHistorySeconds, so the store must hand it the reference point.
    const std::vector<store::PricePoint> points = {{4, "a", kNow - 20 * 86400, 100, 1},
                                                   {4, "a", kNow - 3 * 86400, 150, 1},
                                                   {4, "a", kNow - 86400, 160, 1}};
    ChunkedStore store(points);
    auto rebuilt = engine();
    rebuilt->rebuild(store, kNow);
    const auto week = parse(rebuilt->snapshot()->volatility(4, "7d"));
    CPPUNIT_ASSERT(close(60.0, week->getValue<double>("percent_change")));
    CPPUNIT_ASSERT_EQUAL(2, week->getValue<int>("samples"));  // p_ref is not a sample
    // The same as the daemon that saw every point live.
    auto incremental = engine();
    feed(*incremental, points);
    CPPUNIT_ASSERT_EQUAL(std::string(incremental->snapshot()->volatility(4, "7d")),
                         std::string(rebuilt->snapshot()->volatility(4, "7d")));
  }

  void testRepeatedPointsCountOnce() {
    auto e = engine();
    const std::vector<store::PricePoint> cycle = {{9, "a", kNow - 600, 100, 1},
                                                  {9, "a", kNow - 300, 200, 1}};
    feed(*e, cycle);
    feed(*e, cycle);                           // the same observations reported again
    feed(*e, {{9, "a", kNow - 400, 999, 1}});  // late: left to the next rebuild
    CPPUNIT_ASSERT_EQUAL(2, parse(e->snapshot()->volatility(9, "1h"))->getValue<int>("samples"));
  }

  void testWindowsSlideWithoutNewPoints() {
    auto e = engine();
    feed(*e, {{1, "a", kNow - 600, 100, 1}, {1, "a", kNow - 300, 200, 1}});
    CPPUNIT_ASSERT_EQUAL(2, parse(e->snapshot()->volatility(1, "1h"))->getValue<int>("samples"));
    e->recompute(kNow + 7200);
    const auto later = e->snapshot();
    CPPUNIT_ASSERT_EQUAL(0, parse(later->volatility(1, "1h"))->getValue<int>("samples"));
    CPPUNIT_ASSERT_EQUAL(2, parse(later->volatility(1, "24h"))->getValue<int>("samples"));
    e->recompute(kNow + 8 * 86400);  // gone from every window: zeros, then forgotten
    CPPUNIT_ASSERT_EQUAL(0, parse(e->snapshot()->volatility(1, "7d"))->getValue<int>("samples"));
    e->recompute(kNow + 8 * 86400 + 60);
    CPPUNIT_ASSERT(e->snapshot()->volatility(1, "7d").empty());
  }

  // The cycle's metrics are computed while it is stored (IngestCycle): readers see them
  // only once the store committed.
  void testAPreparedCycleShowsOnlyOnCommit() {
    auto e = engine();
    feed(*e, {{1, "a", kNow - 600, 100, 1}});
    const std::vector<store::PricePoint> cycle = {{1, "a", kNow - 300, 200, 1}};
    const ingest::CycleUpdate update{kNow, cycle};
    auto prepared = e->prepareCycle(update, {"a"});
    CPPUNIT_ASSERT(prepared != nullptr);
    CPPUNIT_ASSERT_EQUAL(1, parse(e->snapshot()->volatility(1, "1h"))->getValue<int>("samples"));
    prepared->commit();
    CPPUNIT_ASSERT_EQUAL(2, parse(e->snapshot()->volatility(1, "1h"))->getValue<int>("samples"));
  }

  // The store failed: the cycle's points were folded in but never stored. Nothing of them
  // is published, and the next cycle's metrics are the store's history plus that cycle,
  // as a daemon that never saw the lost one would compute them.
  void testAnAbandonedCycleIsForgotten() {
    std::vector<store::PricePoint> stored = {{1, "a", kNow - 900, 100, 1}};
    ChunkedStore store(stored);
    auto e = engine();
    latest_.apply(stored);
    e->rebuild(store, kNow);
    {
      const std::vector<store::PricePoint> lost = {{1, "a", kNow - 600, 5000, 1}};
      auto prepared = e->prepareCycle(ingest::CycleUpdate{kNow, lost}, {"a"});
    }  // dropped uncommitted
    CPPUNIT_ASSERT_EQUAL(1, parse(e->snapshot()->volatility(1, "1h"))->getValue<int>("samples"));
    const std::vector<store::PricePoint> next = {{1, "a", kNow - 300, 200, 1}};
    e->prepareCycle(ingest::CycleUpdate{kNow, next}, {"a"})->commit();
    auto expected = engine();
    feed(*expected, {stored[0], next[0]});
    CPPUNIT_ASSERT_EQUAL(std::string(expected->snapshot()->volatility(1, "1h")),
                         std::string(e->snapshot()->volatility(1, "1h")));
    CPPUNIT_ASSERT_EQUAL(2, parse(e->snapshot()->volatility(1, "1h"))->getValue<int>("samples"));
  }

 private:
  catalog::Catalog catalog_;
  prices::LatestPrices latest_;
  std::vector<std::unique_ptr<MetricPlugins>> plugins_;         // outlive every engine of a test
  std::vector<std::unique_ptr<prices::PricePolicy>> policies_;  // the same
};

CPPUNIT_TEST_SUITE_REGISTRATION(MetricsEngineTest);
