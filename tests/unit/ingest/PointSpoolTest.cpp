#include "ingest/PointSpool.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <random>
#include <tuple>

using namespace skinpulse;

class PointSpoolTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PointSpoolTest);
  CPPUNIT_TEST(inMemoryOrderIsTimeThenSourceThenArrival);
  CPPUNIT_TEST(spilledRunsMergeToTheSameOrder);
  CPPUNIT_TEST(fieldsSurviveTheSpill);
  CPPUNIT_TEST(emptySpoolVisitsNothing);
  CPPUNIT_TEST_SUITE_END();

  static std::vector<store::PricePoint> sample(std::size_t n) {
    std::mt19937 random(7);
    const char* sources[] = {"b", "a", "archive", "c"};
    std::vector<store::PricePoint> points;
    for (std::size_t i = 0; i < n; ++i) {
      store::PricePoint p{static_cast<std::int64_t>(random() % 50 + 1), sources[random() % 4],
                          static_cast<std::int64_t>(random() % 40),
                          static_cast<std::int64_t>(i + 1), 0};
      points.push_back(p);
    }
    return points;
  }

  // The order PointSpool promises, built the obvious way.
  static std::vector<store::PricePoint> expected(std::vector<store::PricePoint> points) {
    std::stable_sort(points.begin(), points.end(),
                     [](const store::PricePoint& a, const store::PricePoint& b) {
                       return std::tie(a.time, a.source) < std::tie(b.time, b.source);
                     });
    return points;
  }

  static std::vector<store::PricePoint> drained(ingest::PointSpool& spool, std::size_t chunk) {
    std::vector<store::PricePoint> out;
    spool.drain(chunk, [&](std::vector<store::PricePoint>& points) {
      CPPUNIT_ASSERT(points.size() <= chunk);
      out.insert(out.end(), points.begin(), points.end());
    });
    return out;
  }

 public:
  void inMemoryOrderIsTimeThenSourceThenArrival() {
    const auto points = sample(500);
    ingest::PointSpool spool;
    for (const auto& p : points) spool.add(p);
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, spool.spilledRuns());
    CPPUNIT_ASSERT(drained(spool, 64) == expected(points));
  }

  void spilledRunsMergeToTheSameOrder() {
    const auto points = sample(5000);
    ingest::PointSpool spool(333);  // 15 full runs and a partial one
    for (const auto& p : points) spool.add(p);
    CPPUNIT_ASSERT_EQUAL(std::size_t{15}, spool.spilledRuns());
    CPPUNIT_ASSERT_EQUAL(std::size_t{5000}, spool.size());
    CPPUNIT_ASSERT(drained(spool, 1000) == expected(points));
  }

  void fieldsSurviveTheSpill() {
    store::PricePoint p{42, "dmarket-bid", 1795341600, 123456789, 17, sdk::PriceKind::kBid, 9};
    p.outlier = true;
    store::PricePoint q{43, "x", 1795341601, 1, 0, sdk::PriceKind::kReference, std::nullopt};
    ingest::PointSpool spool(1);
    spool.add(q);
    spool.add(p);
    const auto out = drained(spool, 10);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, out.size());
    CPPUNIT_ASSERT(out[0] == p);
    CPPUNIT_ASSERT(out[1] == q);
  }

  void emptySpoolVisitsNothing() {
    ingest::PointSpool spool;
    CPPUNIT_ASSERT(drained(spool, 10).empty());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PointSpoolTest);
