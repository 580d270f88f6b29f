// BucketLevel against the naive reference of ReferenceMetrics.hpp: the sufficient
// statistics it keeps must give the same moments as the raw points, in every window, for
// points in any order, and keep their digits at 10^7 cents.

#include "ReferenceMetrics.hpp"
#include "metrics/BucketLevel.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <array>
#include <random>

using namespace skinpulse;
using namespace skinpulse::test;
using metrics::BucketLevel;
using metrics::kWindows;

namespace {

constexpr std::int64_t kNow = 1'800'000'123;

std::vector<RawPoint> randomWalk(std::uint32_t seed, std::int64_t from, std::int64_t to,
                                 std::int64_t start_price) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> gap(20, 900);
  std::uniform_int_distribution<int> step(-40, 40);
  std::vector<RawPoint> points;
  std::int64_t price = start_price;
  for (std::int64_t t = from; t <= to; t += gap(random)) {
    price = std::max<std::int64_t>(1, price + step(random));
    points.push_back({t, price});
  }
  return points;
}

sdk::WindowStats statsOf(const std::vector<RawPoint>& points, std::size_t window,
                         std::int64_t now) {
  BucketLevel level;
  for (const auto& p : points) level.add(kWindows[window], p.time, p.price);
  level.advance(kWindows[window], now);
  return level.stats(kWindows[window], now);
}

void assertMatches(const std::vector<RawPoint>& points, std::size_t window, std::int64_t now) {
  const auto& shape = kWindows[window];
  const auto expected = referenceMetrics(points, now, shape.seconds, shape.bucket_seconds);
  const auto s = statsOf(points, window, now);
  const std::string where = std::string("window ") + std::string(shape.name);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(where, expected.n, s.n);
  CPPUNIT_ASSERT_MESSAGE(where, close(expected.mean, s.mean_price));
  CPPUNIT_ASSERT_MESSAGE(where, close(expected.stddev, std::sqrt(s.m2_price / s.n)));
  CPPUNIT_ASSERT_MESSAGE(where, close(expected.trend_per_hour, s.co_moment / s.m2_time * 3600));
  CPPUNIT_ASSERT_MESSAGE(where, close(expected.min, s.min_price));
  CPPUNIT_ASSERT_MESSAGE(where, close(expected.max, s.max_price));
}

}  // namespace

class BucketLevelTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BucketLevelTest);
  CPPUNIT_TEST(testMatchesReferenceInEveryWindow);
  CPPUNIT_TEST(testPointsInAnyOrderGiveTheSameStatistics);
  CPPUNIT_TEST(testTenMillionCentsWithOneCentMovesKeepEveryDigit);
  CPPUNIT_TEST(testFirstLastAndTheNewestPointBeforeTheWindow);
  CPPUNIT_TEST(testAdvancingDropsBucketsAndKeepsCounts);
  CPPUNIT_TEST(testEmptyAndSinglePointWindows);
  CPPUNIT_TEST(testSlidingInTimeOrderLikeTheEngine);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testMatchesReferenceInEveryWindow() {
    for (std::uint32_t seed = 1; seed <= 5; ++seed) {
      const auto points = randomWalk(seed, kNow - 8 * 86400, kNow, 5000 + 1000 * seed);
      for (std::size_t w = 0; w < kWindows.size(); ++w) assertMatches(points, w, kNow);
    }
  }

  void testPointsInAnyOrderGiveTheSameStatistics() {
    auto points = randomWalk(7, kNow - 2 * 86400, kNow, 2500);
    // Several points per bucket, some earlier than the bucket's first one seen.
    std::vector<RawPoint> dense;
    for (const auto& p : points) {
      dense.push_back(p);
      dense.push_back({p.time + 7, p.price + 3});
    }
    std::shuffle(dense.begin(), dense.end(), std::mt19937(11));
    for (std::size_t w = 0; w < kWindows.size(); ++w) assertMatches(dense, w, kNow);
  }

  void testTenMillionCentsWithOneCentMovesKeepEveryDigit() {
    // 10^7 cents ± 1: Σp² is ~10^14 per point, so a naive Σp²/n − μ² in doubles loses the
    // whole variance (0.25 here) to rounding. The exact sums must give it to the last bit.
    std::vector<RawPoint> points;
    for (std::int64_t i = 0; i < 2000; ++i) {
      points.push_back({kNow - 7 * 86400 + 100 + i * 300, 10'000'000 + (i % 2)});
    }
    for (std::size_t w = 0; w < kWindows.size(); ++w) {
      const auto s = statsOf(points, w, kNow);
      if (s.n < 2) continue;
      const auto expected =
          referenceMetrics(points, kNow, kWindows[w].seconds, kWindows[w].bucket_seconds);
      CPPUNIT_ASSERT(close(expected.stddev, std::sqrt(s.m2_price / s.n), 1e-12));
      CPPUNIT_ASSERT(close(expected.mean, s.mean_price, 1e-15));
    }
    const auto week = statsOf(points, 2, kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2000}, week.n);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, std::sqrt(week.m2_price / week.n), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(10'000'000.5, week.mean_price, 1e-9);
    // A slow drift of one cent per 4 hours on 10^7: the slope must survive too.
    std::vector<RawPoint> drift;
    for (std::int64_t i = 0; i < 600; ++i) {
      drift.push_back({kNow - 86400 + i * 144, 10'000'000 + i / 100});
    }
    const auto expected = referenceMetrics(drift, kNow, 86400, 300);
    const auto s = statsOf(drift, 1, kNow);
    CPPUNIT_ASSERT(close(expected.trend_per_hour, s.co_moment / s.m2_time * 3600, 1e-9));
  }

  void testFirstLastAndTheNewestPointBeforeTheWindow() {
    const std::vector<RawPoint> points = {
        {kNow - 7200, 100}, {kNow - 5000, 110}, {kNow - 1800, 120}, {kNow - 60, 90}};
    const auto s = statsOf(points, 0, kNow);  // 1h
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, s.n);
    CPPUNIT_ASSERT_EQUAL(kNow - 1800, s.first_time);
    CPPUNIT_ASSERT_EQUAL(120.0, s.first_price);
    CPPUNIT_ASSERT_EQUAL(kNow - 60, s.last_time);
    CPPUNIT_ASSERT_EQUAL(90.0, s.last_price);
    CPPUNIT_ASSERT(s.has_price_before);
    CPPUNIT_ASSERT_EQUAL(110.0, s.price_before);  // the newest before, not the oldest
    const auto day = statsOf(points, 1, kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, day.n);
    CPPUNIT_ASSERT(!day.has_price_before);
    CPPUNIT_ASSERT_EQUAL(86400.0, static_cast<double>(day.window_seconds));
  }

  void testAdvancingDropsBucketsAndKeepsCounts() {
    BucketLevel level;
    const auto& hour = kWindows[0];
    for (std::int64_t t = kNow - 3000; t <= kNow; t += 600) level.add(hour, t, t % 1000);
    level.advance(hour, kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{6}, level.count());
    // 41 minutes later the first four points have left the window.
    const std::int64_t later = kNow + 2460;
    level.advance(hour, later);
    const auto s = level.stats(hour, later);
    CPPUNIT_ASSERT_EQUAL(level.count(), s.n);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, s.n);
    CPPUNIT_ASSERT(s.has_price_before);
    CPPUNIT_ASSERT_EQUAL(static_cast<double>((kNow - 1200) % 1000), s.price_before);
    // A point older than the window only competes for p_ref.
    level.add(hour, later - 4000, 5);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, level.count());
    CPPUNIT_ASSERT_EQUAL(static_cast<double>((kNow - 1200) % 1000),
                         level.stats(hour, later).price_before);
    // An earlier `now` does not bring dropped buckets back.
    level.advance(hour, kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, level.count());
  }

  void testEmptyAndSinglePointWindows() {
    BucketLevel level;
    CPPUNIT_ASSERT(level.empty());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, level.stats(kWindows[1], kNow).n);
    level.add(kWindows[1], kNow - 10, 777);
    level.advance(kWindows[1], kNow);
    const auto s = level.stats(kWindows[1], kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, s.n);
    CPPUNIT_ASSERT_EQUAL(777.0, s.mean_price);
    CPPUNIT_ASSERT_EQUAL(0.0, s.m2_price);
    CPPUNIT_ASSERT_EQUAL(0.0, s.m2_time);
  }

  void testSlidingInTimeOrderLikeTheEngine() {
    // Points arrive in time order, each window moved to the cycle's time first (as the
    // engine folds them); every cycle, the statistics match the reference, min and max
    // included after the buckets holding them have left.
    const auto points = randomWalk(21, kNow - 9 * 86400, kNow, 40'000);
    std::array<BucketLevel, 3> levels;
    std::size_t next = 0;
    for (std::int64_t now = kNow - 9 * 86400 + 3000; now <= kNow; now += 1800) {
      for (; next < points.size() && points[next].time <= now; ++next) {
        for (std::size_t w = 0; w < kWindows.size(); ++w) {
          levels[w].advance(kWindows[w], now);
          levels[w].add(kWindows[w], points[next].time, points[next].price);
        }
      }
      const std::vector<RawPoint> seen(points.begin(), points.begin() + next);
      for (std::size_t w = 0; w < kWindows.size(); ++w) {
        levels[w].advance(kWindows[w], now);
        const auto s = levels[w].stats(kWindows[w], now);
        const auto expected =
            referenceMetrics(seen, now, kWindows[w].seconds, kWindows[w].bucket_seconds);
        CPPUNIT_ASSERT_EQUAL(expected.n, s.n);
        if (s.n == 0) continue;
        CPPUNIT_ASSERT(close(expected.mean, s.mean_price));
        CPPUNIT_ASSERT(close(expected.stddev, std::sqrt(s.m2_price / s.n)));
        CPPUNIT_ASSERT(close(expected.min, s.min_price));
        CPPUNIT_ASSERT(close(expected.max, s.max_price));
        CPPUNIT_ASSERT(
            close(expected.percent_change,
                  ((s.last_price - (s.has_price_before ? s.price_before : s.first_price)) /
                   (s.has_price_before ? s.price_before : s.first_price) * 100)));
      }
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BucketLevelTest);
