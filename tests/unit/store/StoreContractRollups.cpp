// Contract: rollups and the cycle log (docs/api.md §20). A rollup is, at every moment, the
// fold (store/Ohlcv's barOf and mergeBar) of the stored points of its bucket that are not
// outliers, whatever order the points came in and whichever path stored them.

#include "StoreContract.hpp"
#include "store/Ohlcv.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <random>
#include <set>

using Poco::Data::Keywords::now;

namespace skinpulse::test {
namespace {

using store::OhlcvBar;
using store::PricePoint;
using store::RollupLevel;

constexpr RollupLevel kLevels[] = {RollupLevel::kHour, RollupLevel::kDay};
// 2026-11-02 00:00 UTC, a Monday: the random series span four days from here.
constexpr std::int64_t kBase = 1793577600;

std::vector<OhlcvBar> foldOf(const std::vector<PricePoint>& points, RollupLevel level) {
  std::map<std::int64_t, OhlcvBar> bars;
  // Folded from the newest point back: the fold must not depend on the order.
  for (auto it = points.rbegin(); it != points.rend(); ++it) {
    if (it->outlier) continue;
    const std::int64_t start = store::bucketStart(it->time, store::rollupSeconds(level));
    auto& bar = bars[start];
    bar.start = start;
    store::mergeBar(bar, store::barOf(start, it->time, it->price, it->volume));
  }
  std::vector<OhlcvBar> out;
  for (const auto& [start, bar] : bars) out.push_back(bar);
  return out;
}

// Every series of items 1..items and sources a, b: rollups == the fold of the raw points.
void requireRollupsMatchRaw(store::PriceStore& prices, std::int64_t items) {
  for (std::int64_t item = 1; item <= items; ++item) {
    for (const std::string source : {"a", "b"}) {
      const auto raw = prices.history(item, kBase - 1, source);
      for (const auto level : kLevels) {
        const auto expected = foldOf(raw, level);
        const auto stored = prices.rollups(item, source, level, kBase - 86400);
        CPPUNIT_ASSERT_EQUAL_MESSAGE("item " + std::to_string(item) + " " + source, expected.size(),
                                     stored.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
          CPPUNIT_ASSERT_MESSAGE(
              "item " + std::to_string(item) + " " + source + " bar " + std::to_string(i),
              expected[i] == stored[i]);
        }
      }
    }
  }
}

std::vector<PricePoint> randomSeries(std::mt19937& random, std::int64_t items, std::size_t count) {
  std::uniform_int_distribution<std::int64_t> item(1, items), time(0, 4 * 86400 - 1),
      price(1, 100000), volume(0, 50);
  std::bernoulli_distribution source(0.5), outlier(0.1);
  std::vector<PricePoint> points;
  for (std::size_t i = 0; i < count; ++i) {
    PricePoint p{item(random), source(random) ? "a" : "b", kBase + time(random), price(random),
                 volume(random)};
    p.outlier = outlier(random);
    points.push_back(p);
  }
  return points;
}

}  // namespace

void StoreContract::testRollupsAreTheFoldOfRawPoints() {
  if (skipped()) return;
  seedItems(4);
  auto& prices = db_->prices();
  std::mt19937 random(20261128);
  auto points = randomSeries(random, 4, 3000);
  // Out of order, in batches, each with duplicates of points stored before (other prices:
  // the first observation wins and the duplicate must not reach a rollup).
  std::shuffle(points.begin(), points.end(), random);
  std::size_t expected_new = 0;
  std::map<std::tuple<std::int64_t, std::string, std::int64_t>, bool> keys;
  for (const auto& p : points)
    expected_new += keys.emplace(std::tie(p.item_id, p.source, p.time), true).second;
  std::size_t stored = 0;
  for (std::size_t begin = 0; begin < points.size(); begin += 500) {
    std::vector<PricePoint> batch(points.begin() + begin,
                                  points.begin() + std::min(points.size(), begin + 500));
    for (std::size_t i = 0; i < begin && i < 50; ++i) {
      PricePoint again = points[i * 7 % begin];
      again.price += 13;
      batch.push_back(again);
    }
    stored += prices.insert(batch);
  }
  CPPUNIT_ASSERT_EQUAL(expected_new, stored);
  requireRollupsMatchRaw(prices, 4);

  // A streamed backfill of more history, with duplicates of the stored points.
  auto more = randomSeries(random, 4, 2000);
  more.insert(more.end(), points.begin(), points.begin() + 200);
  {
    auto writer = prices.openBackfill();
    writer->add(std::vector<PricePoint>(more.begin(), more.begin() + 1100));
    writer->add(std::vector<PricePoint>(more.begin() + 1100, more.end()));
    writer->finish();
  }
  requireRollupsMatchRaw(prices, 4);

  // Outliers un-flagged: they join their bars once, however often they are confirmed.
  std::vector<PricePoint> confirmed;
  for (const auto& p : prices.pointsSince(0)) {
    if (p.outlier && confirmed.size() < 40) confirmed.push_back(p);
  }
  CPPUNIT_ASSERT(confirmed.size() == 40);
  prices.clearOutliers(confirmed);
  prices.clearOutliers(confirmed);
  requireRollupsMatchRaw(prices, 4);
  {
    auto writer = prices.openBackfill();
    writer->clearOutliers({confirmed.front()});  // already un-flagged: no change
    writer->finish();
  }
  requireRollupsMatchRaw(prices, 4);
  // Retention of raw points leaves the bars alone; rollup retention removes whole bars.
  prices.deleteOlderThan(kBase + 5 * 86400, kBase, 1000000);
  const auto day_bars = prices.rollups(1, "a", RollupLevel::kDay, 0);
  CPPUNIT_ASSERT_EQUAL(std::size_t{4}, day_bars.size());
  const std::size_t hourly_before = prices.rollups(1, "a", RollupLevel::kHour, 0).size();
  CPPUNIT_ASSERT(prices.deleteRollupsBefore(RollupLevel::kHour, kBase + 86400) > 0);
  const auto hours = prices.rollups(1, "a", RollupLevel::kHour, 0);
  CPPUNIT_ASSERT(hours.size() < hourly_before);
  CPPUNIT_ASSERT(!hours.empty() && hours.front().start >= kBase + 86400);
  CPPUNIT_ASSERT_EQUAL(std::size_t{4}, prices.rollups(1, "a", RollupLevel::kDay, 0).size());
  // `from` bounds the bars read.
  CPPUNIT_ASSERT_EQUAL(std::size_t{2},
                       prices.rollups(1, "a", RollupLevel::kDay, kBase + 2 * 86400).size());
}

// Backfilled history older than the raw retention lands in the rollups only; a second
// import of the same file changes nothing.
void StoreContract::testBackfillOlderThanRetentionGoesToRollupsOnly() {
  if (skipped()) return;
  seedItems(2);
  auto& prices = db_->prices();
  const std::int64_t raw_from = kBase + 2 * 86400;
  std::mt19937 random(7);
  auto points = randomSeries(random, 2, 1500);
  std::sort(points.begin(), points.end(), [](const PricePoint& a, const PricePoint& b) {
    return std::tie(a.time, a.source) < std::tie(b.time, b.source);
  });
  for (int pass = 0; pass < 2; ++pass) {
    auto writer = prices.openBackfill(raw_from);
    // Chunks in time order, as ingest::backfill hands them; bars span chunk ends.
    for (std::size_t begin = 0; begin < points.size(); begin += 256) {
      writer->add(std::vector<PricePoint>(points.begin() + begin,
                                          points.begin() + std::min(points.size(), begin + 256)));
    }
    writer->finish();
    for (const auto& p : prices.pointsSince(0)) CPPUNIT_ASSERT(p.time >= raw_from);
    for (std::int64_t item = 1; item <= 2; ++item) {
      for (const std::string source : {"a", "b"}) {
        std::vector<PricePoint> series;  // the first observation of each key
        std::set<std::int64_t> times;
        for (const auto& p : points) {
          if (p.item_id == item && p.source == source && times.insert(p.time).second) {
            series.push_back(p);
          }
        }
        for (const auto level : kLevels) {
          const auto expected = foldOf(series, level);
          const auto stored = prices.rollups(item, source, level, 0);
          CPPUNIT_ASSERT_EQUAL(expected.size(), stored.size());
          for (std::size_t i = 0; i < expected.size(); ++i)
            CPPUNIT_ASSERT(expected[i] == stored[i]);
        }
      }
    }
  }
}

// Old history imported in several files (docs/adr/0026-partitions-and-rollups.md): one UTC
// day split across two files merges (the two bars' times do not overlap); the same file
// again changes nothing; a file that holds more of an overlapping range replaces the bar.
void StoreContract::testBackfillReconcilesStoredBars() {
  if (skipped()) return;
  seedItems(2);
  auto& prices = db_->prices();
  const std::int64_t day = kBase + 86400;
  const std::int64_t raw_from = kBase + 10 * 86400;  // every point is older: rollups only
  auto series = [&](std::int64_t item, std::int64_t from, std::int64_t to) {
    std::vector<PricePoint> points;
    for (std::int64_t t = from; t < to; t += 600) {
      points.push_back({item, "a", t, 1000 + (t / 600 * 37) % 500, (t / 600) % 7});
    }
    return points;
  };
  auto import = [&](const std::vector<PricePoint>& points) {
    auto writer = prices.openBackfill(raw_from);
    writer->add(points);
    return writer->finish();
  };
  auto requireBars = [&](std::int64_t item, const std::vector<PricePoint>& expected_points) {
    for (const auto level : kLevels) {
      const auto expected = foldOf(expected_points, level);
      const auto stored = prices.rollups(item, "a", level, 0);
      CPPUNIT_ASSERT_EQUAL(expected.size(), stored.size());
      for (std::size_t i = 0; i < expected.size(); ++i) CPPUNIT_ASSERT(expected[i] == stored[i]);
    }
  };

  // File A ends at 13:00, file B starts there: the hour and the day hold both.
  const auto file_a = series(1, day, day + 13 * 3600);
  const auto file_b = series(1, day + 13 * 3600, day + 86400);
  CPPUNIT_ASSERT_EQUAL(file_a.size(), import(file_a));
  CPPUNIT_ASSERT_EQUAL(file_b.size(), import(file_b));
  auto whole = file_a;
  whole.insert(whole.end(), file_b.begin(), file_b.end());
  requireBars(1, whole);
  // The same files again: nothing counted twice.
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, import(file_b));
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, import(whole));
  requireBars(1, whole);

  // A partial file, then one holding all of it and more: the fuller bars replace it.
  const auto partial = series(2, day + 6 * 3600, day + 12 * 3600);
  const auto superset = series(2, day, day + 86400);
  CPPUNIT_ASSERT_EQUAL(partial.size(), import(partial));
  CPPUNIT_ASSERT_EQUAL(superset.size() - partial.size(), import(superset));
  requireBars(2, superset);
  // The partial file once more: the stored bars have more samples and stay.
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, import(partial));
  requireBars(2, superset);
  CPPUNIT_ASSERT(prices.pointsSince(0).empty());
}

// The store stage of a cycle at production size, rollups and cycle log included: printed,
// not asserted (docs/adr/0026-partitions-and-rollups.md quotes it).
void StoreContract::testCycleInsertTiming() {
  if (skipped()) return;
  seedItems(12500);
  auto& prices = db_->prices();
  using Clock = std::chrono::steady_clock;
  double total_ms = 0;
  constexpr int kCycles = 4;
  for (int cycle = 0; cycle < kCycles; ++cycle) {
    std::vector<PricePoint> points;
    for (std::int64_t i = 0; i < 25000; ++i) {
      points.push_back({1 + i % 12500, i < 12500 ? "skinport" : "steam_market",
                        kBase + cycle * 300 + i % 60, 100 + (i * 7919 + cycle) % 5000, i % 5});
    }
    const auto started = Clock::now();
    CPPUNIT_ASSERT_EQUAL(std::size_t{25000}, prices.insert(points));
    total_ms += std::chrono::duration<double, std::milli>(Clock::now() - started).count();
  }
  std::cout << " [" << db_->backend() << ": 25,000-point cycle " << total_ms / kCycles << " ms ("
            << static_cast<long>(25000.0 * kCycles / (total_ms / 1000)) << " points/s)]";
  const auto bars = prices.rollups(1, "skinport", RollupLevel::kHour, 0);
  CPPUNIT_ASSERT(bars.size() == 1 && bars[0].samples == kCycles);
}

void StoreContract::testCycleLog() {
  if (skipped()) return;
  seedItems(3);
  auto& prices = db_->prices();
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, prices.lastCycleSeq());
  const auto empty = prices.cyclesAfter(0, 10);
  CPPUNIT_ASSERT(empty.points.empty() && empty.complete && empty.last_seq == 0);

  prices.insert({{1, "a", 1000, 10, 0}, {2, "a", 1005, 20, 0}});
  const std::int64_t first = prices.lastCycleSeq();
  CPPUNIT_ASSERT(first > 0);
  prices.insert({{1, "a", 1000, 10, 0}});  // nothing new: no entry
  CPPUNIT_ASSERT_EQUAL(first, prices.lastCycleSeq());
  prices.insertBackfill({{3, "b", 500, 1, 0}});  // backfills are not cycles
  CPPUNIT_ASSERT_EQUAL(first, prices.lastCycleSeq());
  prices.insert({{3, "a", 2000, 30, 0}, {1, "b", 2000, 31, 0}});
  prices.insert({{2, "b", 3000, 40, 0}});
  const std::int64_t last = prices.lastCycleSeq();

  const auto two = prices.cyclesAfter(first - 1, 2);
  CPPUNIT_ASSERT_EQUAL(last - 1, two.last_seq);
  CPPUNIT_ASSERT(two.complete);
  CPPUNIT_ASSERT_EQUAL(std::size_t{4}, two.points.size());
  CPPUNIT_ASSERT(two.points[0] == (PricePoint{1, "a", 1000, 10, 0}));
  CPPUNIT_ASSERT(two.points[1] == (PricePoint{2, "a", 1005, 20, 0}));
  CPPUNIT_ASSERT(two.points[2] == (PricePoint{3, "a", 2000, 30, 0}));
  CPPUNIT_ASSERT(two.points[3] == (PricePoint{1, "b", 2000, 31, 0}));
  const auto rest = prices.cyclesAfter(two.last_seq, 10);
  CPPUNIT_ASSERT_EQUAL(last, rest.last_seq);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, rest.points.size());
  const auto none = prices.cyclesAfter(last, 10);
  CPPUNIT_ASSERT_EQUAL(last, none.last_seq);
  CPPUNIT_ASSERT(none.points.empty() && none.complete);

  // Entries older than a day are pruned at the next cycle; a follower behind them is told.
  {
    auto lease = pool().write();
    lease.session() << "UPDATE ingest_cycles SET stored_at = 1000", now;
  }
  prices.insert({{2, "b", 4000, 41, 0}});
  CPPUNIT_ASSERT_EQUAL(last + 1, prices.lastCycleSeq());
  CPPUNIT_ASSERT(!prices.cyclesAfter(first, 10).complete);
  const auto current = prices.cyclesAfter(last, 10);
  CPPUNIT_ASSERT(current.complete);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, current.points.size());
}

}  // namespace skinpulse::test
