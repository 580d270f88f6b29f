// The five built-in metric plugins, loaded from the build, fed by BucketLevel, against
// the reference implementation: every formula of docs/api.md §3.2 in every window.

#include "MetricPlugins.hpp"
#include "ReferenceMetrics.hpp"
#include "metrics/BucketLevel.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <random>

using namespace skinpulse;
using namespace skinpulse::test;
using metrics::kWindows;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;

struct Values {
  std::vector<double> v;
  const metrics::MetricSet* set;
  double operator[](const char* name) const { return v.at(*set->find(name)); }
};

Values evaluate(const metrics::MetricSet& set, const std::vector<RawPoint>& points,
                std::size_t window, std::int64_t now = kNow) {
  metrics::BucketLevel level;
  for (const auto& p : points) level.add(kWindows[window], p.time, p.price);
  level.advance(kWindows[window], now);
  Values out{{}, &set};
  set.evaluate(level.stats(kWindows[window], now), out.v);
  return out;
}

void assertAllMatch(const metrics::MetricSet& set, const std::vector<RawPoint>& points,
                    std::size_t window) {
  const auto& shape = kWindows[window];
  const auto r = referenceMetrics(points, kNow, shape.seconds, shape.bucket_seconds);
  const auto v = evaluate(set, points, window);
  const std::string at = " in " + std::string(shape.name);
  CPPUNIT_ASSERT_MESSAGE("rolling_stddev" + at, close(r.stddev, v["rolling_stddev"]));
  CPPUNIT_ASSERT_MESSAGE("percent_change" + at, close(r.percent_change, v["percent_change"]));
  CPPUNIT_ASSERT_MESSAGE("bollinger.upper" + at, close(r.upper, v["bollinger.upper"]));
  CPPUNIT_ASSERT_MESSAGE("bollinger.middle" + at, close(r.mean, v["bollinger.middle"]));
  CPPUNIT_ASSERT_MESSAGE("bollinger.lower" + at, close(r.lower, v["bollinger.lower"]));
  CPPUNIT_ASSERT_MESSAGE("coefficient_of_variation" + at,
                         close(r.cov, v["coefficient_of_variation"]));
  CPPUNIT_ASSERT_MESSAGE("trend_score" + at, close(r.trend_per_hour, v["trend_score"]));
}

std::vector<RawPoint> walk(std::uint32_t seed, std::int64_t from, std::int64_t price) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> gap(30, 600);
  std::normal_distribution<double> step(0, 25);
  std::vector<RawPoint> points;
  for (std::int64_t t = from; t <= kNow; t += gap(random)) {
    price = std::max<std::int64_t>(1, price + static_cast<std::int64_t>(step(random)));
    points.push_back({t, price});
  }
  return points;
}

}  // namespace

class MetricPluginsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MetricPluginsTest);
  CPPUNIT_TEST(testFieldsInObjectOrder);
  CPPUNIT_TEST(testEveryMetricMatchesTheReferenceInAllWindows);
  CPPUNIT_TEST(testHandComputedSeries);
  CPPUNIT_TEST(testPercentChangeWithAndWithoutAPointBeforeTheWindow);
  CPPUNIT_TEST(testConstantPrices);
  CPPUNIT_TEST(testZeroMean);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    plugins_ = std::make_unique<MetricPlugins>();
    set_ = std::make_unique<metrics::MetricSet>(plugins_->set());
  }
  void tearDown() override {
    set_.reset();
    plugins_.reset();
  }

  void testFieldsInObjectOrder() {
    std::vector<std::string> names;
    for (const auto& f : set_->fields()) names.push_back(f.name);
    const std::vector<std::string> expected = {
        "rolling_stddev",  "percent_change",           "bollinger.upper", "bollinger.middle",
        "bollinger.lower", "coefficient_of_variation", "trend_score"};
    CPPUNIT_ASSERT(names == expected);
    CPPUNIT_ASSERT_EQUAL(std::string("bollinger"), set_->fields()[2].group);
    CPPUNIT_ASSERT_EQUAL(std::string("upper"), set_->fields()[2].key);
  }

  void testEveryMetricMatchesTheReferenceInAllWindows() {
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
      const auto points = walk(seed, kNow - 8 * 86400, 1000 * seed);
      for (std::size_t w = 0; w < kWindows.size(); ++w) assertAllMatch(*set_, points, w);
    }
  }

  void testHandComputedSeries() {
    // 1h window: 100, 200, 300 at 20, 10 and 0 minutes ago; 150 two hours ago.
    const std::vector<RawPoint> points = {
        {kNow - 7200, 150}, {kNow - 1200, 100}, {kNow - 600, 200}, {kNow, 300}};
    const auto v = evaluate(*set_, points, 0);
    const double sigma = std::sqrt(20000.0 / 3.0);  // Σ(p−200)² = 20000, n = 3
    CPPUNIT_ASSERT_DOUBLES_EQUAL(sigma, v["rolling_stddev"], 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(100.0, v["percent_change"], 1e-9);  // 150 → 300
    CPPUNIT_ASSERT_DOUBLES_EQUAL(200.0, v["bollinger.middle"], 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(200.0 + 2 * sigma, v["bollinger.upper"], 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(200.0 - 2 * sigma, v["bollinger.lower"], 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(sigma / 200.0, v["coefficient_of_variation"], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(600.0, v["trend_score"], 1e-9);  // 100 cents per 10 min
  }

  void testPercentChangeWithAndWithoutAPointBeforeTheWindow() {
    const std::vector<RawPoint> inside = {{kNow - 3000, 400}, {kNow - 100, 500}};
    // Without a point before the window: from the oldest point in it.
    CPPUNIT_ASSERT_DOUBLES_EQUAL(25.0, evaluate(*set_, inside, 0)["percent_change"], 1e-9);
    // With points before: from the newest of them.
    auto with = inside;
    with.push_back({kNow - 90000, 1000});
    with.push_back({kNow - 4000, 250});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(100.0, evaluate(*set_, with, 0)["percent_change"], 1e-9);
    for (std::size_t w = 0; w < kWindows.size(); ++w) assertAllMatch(*set_, with, w);
    // A falling price is a negative change.
    const std::vector<RawPoint> falling = {{kNow - 90000, 800}, {kNow - 3000, 700}, {kNow, 600}};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-25.0, evaluate(*set_, falling, 1)["percent_change"], 1e-9);
  }

  void testConstantPrices() {
    std::vector<RawPoint> points;
    for (std::int64_t t = kNow - 86000; t <= kNow; t += 300) points.push_back({t, 4242});
    for (std::size_t w = 0; w < kWindows.size(); ++w) {
      const auto v = evaluate(*set_, points, w);
      CPPUNIT_ASSERT_EQUAL(0.0, v["rolling_stddev"]);
      CPPUNIT_ASSERT_EQUAL(0.0, v["percent_change"]);
      CPPUNIT_ASSERT_EQUAL(4242.0, v["bollinger.upper"]);
      CPPUNIT_ASSERT_EQUAL(4242.0, v["bollinger.middle"]);
      CPPUNIT_ASSERT_EQUAL(4242.0, v["bollinger.lower"]);
      CPPUNIT_ASSERT_EQUAL(0.0, v["coefficient_of_variation"]);
      CPPUNIT_ASSERT_EQUAL(0.0, v["trend_score"]);
    }
  }

  void testZeroMean() {
    // Free items exist (price 0): no division by zero anywhere.
    const std::vector<RawPoint> points = {{kNow - 5000, 0}, {kNow - 1000, 0}, {kNow, 0}};
    const auto v = evaluate(*set_, points, 1);
    CPPUNIT_ASSERT_EQUAL(0.0, v["coefficient_of_variation"]);
    CPPUNIT_ASSERT_EQUAL(0.0, v["percent_change"]);
    CPPUNIT_ASSERT_EQUAL(0.0, v["rolling_stddev"]);
    CPPUNIT_ASSERT_EQUAL(0.0, v["trend_score"]);
    // A move away from zero: percent change from a zero reference is 0, not infinity.
    const std::vector<RawPoint> rising = {{kNow - 5000, 0}, {kNow, 10}};
    CPPUNIT_ASSERT_EQUAL(0.0, evaluate(*set_, rising, 1)["percent_change"]);
    CPPUNIT_ASSERT(close(7.2, evaluate(*set_, rising, 1)["trend_score"]));  // 10 per 5000 s
  }

 private:
  std::unique_ptr<MetricPlugins> plugins_;
  std::unique_ptr<metrics::MetricSet> set_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(MetricPluginsTest);
