// A candle is the same whether built from raw points or from rollups (docs/api.md §10):
// on random series — times in any order, duplicate keys, flagged points, some of them
// confirmed later, prices across the whole range — the candles folded from the stored raw
// points equal the ones folded from the hourly and daily rollups, for every window and
// interval both can serve, and both equal a naive reference (sort the bucket's points by
// time: first, max, min, last, sums) written without store/Ohlcv.

#include "CandlesMemoryStore.hpp"
#include "metrics/Candles.hpp"
#include "metrics/CandlesReader.hpp"
#include "metrics/CandlesWindows.hpp"
#include "mocks/TestPricePolicy.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <map>
#include <random>

using namespace skinpulse;

namespace {

constexpr std::int64_t kEpoch = 1'780'000'000;  // 2026-05-28, a Thursday
constexpr std::int64_t kDay = 86400;

// The naive fold: what a bar of a bucket must be, by definition.
std::vector<metrics::Candle> referenceCandles(std::vector<store::PricePoint> points,
                                              std::int64_t interval, std::int64_t from) {
  std::sort(points.begin(), points.end(),
            [](const auto& a, const auto& b) { return a.time < b.time; });
  std::map<std::int64_t, std::vector<store::PricePoint>> buckets;
  for (const auto& p : points) {
    const std::int64_t start = store::bucketStart(p.time, interval);
    if (start >= from) buckets[start].push_back(p);
  }
  std::vector<metrics::Candle> out;
  for (const auto& [start, in] : buckets) {
    metrics::Candle c;
    c.start = start;
    c.open = in.front().price;
    c.open_time = in.front().time;
    c.close = in.back().price;
    c.close_time = in.back().time;
    c.high = c.low = c.open;
    for (const auto& p : in) {
      c.high = std::max(c.high, p.price);
      c.low = std::min(c.low, p.price);
      c.volume += p.volume;
    }
    c.samples = static_cast<std::int64_t>(in.size());
    out.push_back(c);
  }
  return out;
}

std::string describe(const std::vector<metrics::Candle>& bars) {
  std::string out;
  for (const auto& b : bars) {
    out += std::to_string(b.start) + ":" + std::to_string(b.open) + "/" + std::to_string(b.high) +
           "/" + std::to_string(b.low) + "/" + std::to_string(b.close) + "/" +
           std::to_string(b.volume) + "/" + std::to_string(b.samples) + " ";
  }
  return out;
}

// One random series in a store: out of order, with duplicates, flags and confirmations.
struct RandomSeries {
  test::CandlesMemoryStore store;
  std::int64_t now = 0;

  explicit RandomSeries(std::mt19937_64& rng) {
    const std::int64_t spans[] = {2 * 3600, 3 * kDay, 40 * kDay, 400 * kDay, 3 * 365 * kDay};
    const std::int64_t span = spans[rng() % 5];
    const std::size_t count = 1 + rng() % 700;
    std::uniform_int_distribution<std::int64_t> at(kEpoch - span, kEpoch);
    std::vector<store::PricePoint> points;
    for (std::size_t i = 0; i < count; ++i) {
      store::PricePoint p;
      p.item_id = 1;
      p.source = "alpha";
      // A quarter repeat an earlier key with another price: the first stored must win.
      p.time = !points.empty() && rng() % 4 == 0 ? points[rng() % points.size()].time : at(rng);
      p.price = rng() % 10 == 0 ? 1 + static_cast<std::int64_t>(rng() % 10'000'000)
                                : 900 + static_cast<std::int64_t>(rng() % 200);
      p.volume = static_cast<std::int64_t>(rng() % 50);
      p.outlier = rng() % 8 == 0;
      points.push_back(p);
    }
    points.push_back(store::PricePoint{1, "beta", kEpoch - 100, 5, 1});  // another series
    std::shuffle(points.begin(), points.end(), rng);
    for (std::size_t done = 0; done < points.size();) {  // cycles and backfills of any size
      const std::size_t n = std::min(points.size() - done, 1 + rng() % 60);
      store.insert({points.begin() + static_cast<std::ptrdiff_t>(done),
                    points.begin() + static_cast<std::ptrdiff_t>(done + n)});
      done += n;
    }
    std::vector<store::PricePoint> confirmed;  // later points confirm some flagged ones
    for (const auto& p : points) {
      if (p.outlier && rng() % 3 == 0) confirmed.push_back(p);
    }
    store.clearOutliers(confirmed);
    now = kEpoch + static_cast<std::int64_t>(rng() % (2 * kDay));
  }

  std::vector<store::PricePoint> trustedRaw() {
    auto raw = store.history(1, INT64_MIN, std::string("alpha"));
    std::erase_if(raw, [](const auto& p) { return p.outlier; });
    return raw;
  }
};

}  // namespace

class CandlesRollupEquivalenceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CandlesRollupEquivalenceTest);
  CPPUNIT_TEST(rawAndRollupCandlesAreEqualOnRandomSeries);
  CPPUNIT_TEST(theReaderServesTheSameBarsFromEitherOrigin);
  CPPUNIT_TEST_SUITE_END();

  static constexpr const char* kWindows[] = {"1h", "24h", "7d", "30d", "90d", "1y", "all"};
  static constexpr const char* kRolledIntervals[] = {"1h", "1d", "1w"};

 public:
  void rawAndRollupCandlesAreEqualOnRandomSeries() {
    std::mt19937_64 rng(20261128);
    int compared = 0;
    for (int trial = 0; trial < 150; ++trial) {
      RandomSeries series(rng);
      const auto raw = series.trustedRaw();
      for (const char* window_name : kWindows) {
        const auto window = *metrics::candleWindow(window_name);
        for (const char* interval_name : kRolledIntervals) {
          if (metrics::intervalRefusal(window, interval_name)) continue;
          const std::int64_t interval = *metrics::candleIntervalSeconds(interval_name);
          const auto from = metrics::candleRangeStart(window, interval, series.now);
          const auto level =
              interval == 3600 ? store::RollupLevel::kHour : store::RollupLevel::kDay;
          const auto expected = referenceCandles(raw, interval, from);
          const auto from_raw = metrics::candlesFromPoints(raw, interval, from);
          const auto from_rollups = metrics::candlesFromBars(
              series.store.rollups(1, "alpha", level, from), interval, from);
          const std::string where = "trial " + std::to_string(trial) + " window " + window_name +
                                    " interval " + interval_name;
          CPPUNIT_ASSERT_EQUAL_MESSAGE(where, describe(expected), describe(from_raw));
          CPPUNIT_ASSERT_EQUAL_MESSAGE(where, describe(expected), describe(from_rollups));
          CPPUNIT_ASSERT_MESSAGE(where, expected == from_raw && expected == from_rollups);
          compared += expected.empty() ? 0 : 1;
        }
      }
    }
    CPPUNIT_ASSERT(compared > 500);  // the series really filled windows
  }

  // Through CandlesReader: with outliers excluded it reads rollups, with them counted and
  // every flag lifted it reads raw points inside the retention — the bars are the same.
  void theReaderServesTheSameBarsFromEitherOrigin() {
    std::mt19937_64 rng(7);
    const auto excluding = test::pricePolicy({"alpha"}, true);
    const auto counting = test::pricePolicy({"alpha"}, false);
    for (int trial = 0; trial < 60; ++trial) {
      RandomSeries series(rng);
      auto flagged = series.store.history(1, INT64_MIN, std::string("alpha"));
      series.store.clearOutliers(flagged);  // now raw and rollups hold the same points
      const metrics::CandlesReader rolled(series.store, excluding, 30);
      const metrics::CandlesReader raw(series.store, counting, 3650);
      for (const char* window_name : kWindows) {
        const auto window = *metrics::candleWindow(window_name);
        for (const char* interval_name : kRolledIntervals) {
          if (metrics::intervalRefusal(window, interval_name)) continue;
          const std::int64_t interval = *metrics::candleIntervalSeconds(interval_name);
          const auto a = rolled.read(1, "alpha", window, interval, series.now);
          const auto b = raw.read(1, "alpha", window, interval, series.now);
          CPPUNIT_ASSERT(a.origin != metrics::CandleOrigin::kRawPoints);
          if (window.seconds != 0) {
            CPPUNIT_ASSERT(b.origin == metrics::CandleOrigin::kRawPoints);
          }
          CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(window_name) + " " + interval_name,
                                       describe(a.candles), describe(b.candles));
          CPPUNIT_ASSERT_EQUAL(a.valid_until, b.valid_until);
        }
      }
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CandlesRollupEquivalenceTest);
