// store/Ohlcv: buckets (epoch-aligned, weeks from Monday, times before the epoch) and the
// fold every bar is built with (order-independent; the bar already there wins a tie).

#include "store/Ohlcv.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace skinpulse;
using store::OhlcvBar;

class OhlcvTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(OhlcvTest);
  CPPUNIT_TEST(testBucketStart);
  CPPUNIT_TEST(testWeeksStartOnMonday);
  CPPUNIT_TEST(testBarOfOnePoint);
  CPPUNIT_TEST(testMergeIsOrderIndependent);
  CPPUNIT_TEST(testTieKeepsTheBarAlreadyThere);
  CPPUNIT_TEST(testEmptyBars);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testBucketStart() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3600}, store::rollupSeconds(store::RollupLevel::kHour));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{86400}, store::rollupSeconds(store::RollupLevel::kDay));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7200}, store::bucketStart(7200, 3600));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7200}, store::bucketStart(10799, 3600));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, store::bucketStart(59, 60));
    // Before the epoch the bucket still starts at or before the time.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{-3600}, store::bucketStart(-1, 3600));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{-3600}, store::bucketStart(-3600, 3600));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{-7200}, store::bucketStart(-3601, 3600));
  }

  void testWeeksStartOnMonday() {
    constexpr std::int64_t week = 7 * 86400;
    // 2026-11-23 00:00 UTC is a Monday; 2026-11-29 23:59:59 the Sunday that ends its week.
    constexpr std::int64_t monday = 1795392000;
    CPPUNIT_ASSERT_EQUAL(monday, store::bucketStart(monday, week));
    CPPUNIT_ASSERT_EQUAL(monday, store::bucketStart(monday + week - 1, week));
    CPPUNIT_ASSERT_EQUAL(monday + week, store::bucketStart(monday + week, week));
    // The epoch was a Thursday: its week began on Monday 1969-12-29.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{-3 * 86400}, store::bucketStart(0, week));
  }

  void testBarOfOnePoint() {
    const OhlcvBar bar = store::barOf(3600, 3700, 250, 4);
    CPPUNIT_ASSERT(bar == (OhlcvBar{3600, 250, 250, 250, 250, 4, 1, 3700, 3700}));
  }

  void testMergeIsOrderIndependent() {
    std::mt19937 random(42);
    std::vector<OhlcvBar> points;
    for (std::int64_t i = 0; i < 200; ++i) {
      points.push_back(store::barOf(0, static_cast<std::int64_t>(random() % 100000),
                                    1 + static_cast<std::int64_t>(random() % 5000), i % 7));
    }
    // Distinct times (a series has one point per time).
    std::sort(points.begin(), points.end(),
              [](const OhlcvBar& a, const OhlcvBar& b) { return a.open_time < b.open_time; });
    points.erase(std::unique(points.begin(), points.end(),
                             [](const OhlcvBar& a, const OhlcvBar& b) {
                               return a.open_time == b.open_time;
                             }),
                 points.end());
    OhlcvBar expected{0,       points.front().open,      0,
                      1 << 30, points.back().close,      0,
                      0,       points.front().open_time, points.back().close_time};
    for (const auto& p : points) {
      expected.high = std::max(expected.high, p.high);
      expected.low = std::min(expected.low, p.low);
      expected.volume += p.volume;
      ++expected.samples;
    }
    for (int round = 0; round < 5; ++round) {
      std::shuffle(points.begin(), points.end(), random);
      // One bar point by point, and the same from two partial bars merged.
      OhlcvBar whole, left, right;
      for (std::size_t i = 0; i < points.size(); ++i) {
        store::mergeBar(whole, points[i]);
        store::mergeBar(i % 2 == 0 ? left : right, points[i]);
      }
      store::mergeBar(left, right);
      CPPUNIT_ASSERT(whole == expected);
      CPPUNIT_ASSERT(left == expected);
    }
  }

  void testTieKeepsTheBarAlreadyThere() {
    OhlcvBar bar = store::barOf(0, 100, 10, 1);
    store::mergeBar(bar, store::barOf(0, 100, 20, 1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, bar.open);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, bar.close);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{20}, bar.high);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, bar.samples);
  }

  void testEmptyBars() {
    OhlcvBar empty;
    empty.start = 3600;
    store::mergeBar(empty, store::barOf(7200, 4000, 5, 1));  // the start stays the bucket's
    CPPUNIT_ASSERT(empty == (OhlcvBar{3600, 5, 5, 5, 5, 1, 1, 4000, 4000}));
    const OhlcvBar before = empty;
    store::mergeBar(empty, OhlcvBar{});
    CPPUNIT_ASSERT(empty == before);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(OhlcvTest);
