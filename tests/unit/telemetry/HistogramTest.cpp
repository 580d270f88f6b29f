#include "telemetry/Metrics.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>
#include <thread>
#include <vector>

using namespace skinpulse::telemetry;

class HistogramTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HistogramTest);
  CPPUNIT_TEST(bucketsAreLessOrEqualAndCumulative);
  CPPUNIT_TEST(overTheLastBoundGoesToInf);
  CPPUNIT_TEST(badBoundsAreRefused);
  CPPUNIT_TEST(concurrentObservationsAreAllCounted);
  CPPUNIT_TEST(countersAndGauges);
  CPPUNIT_TEST(standardBucketsAscend);
  CPPUNIT_TEST_SUITE_END();

 public:
  void bucketsAreLessOrEqualAndCumulative() {
    Histogram h({0.1, 0.5, 1.0});
    h.observe(0.1);   // on the bound: in the 0.1 bucket ("le")
    h.observe(0.05);  // 0.1
    h.observe(0.3);   // 0.5
    h.observe(1.0);   // 1
    const auto s = h.snapshot();
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), s.cumulative.size());
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(2), s.cumulative[0]);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(3), s.cumulative[1]);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(4), s.cumulative[2]);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(4), s.cumulative[3]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.45, s.sum, 1e-12);
  }

  void overTheLastBoundGoesToInf() {
    Histogram h({1.0});
    h.observe(7.0);
    h.observe(-1.0);  // below every bound: the first bucket
    const auto s = h.snapshot();
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(1), s.cumulative[0]);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(2), s.cumulative[1]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(6.0, s.sum, 1e-12);
  }

  void badBoundsAreRefused() {
    CPPUNIT_ASSERT_THROW(Histogram({1.0, 1.0}), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(Histogram({2.0, 1.0}), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(Histogram({1.0, std::numeric_limits<double>::infinity()}),
                         std::invalid_argument);
    Histogram none({});  // only +Inf: a plain count and sum
    none.observe(3);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(1), none.snapshot().cumulative.back());
  }

  void concurrentObservationsAreAllCounted() {
    Histogram h(latencyBuckets());
    Counter c;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 10000; ++i) {
          h.observe(0.001 * (i % 50));
          c.inc();
        }
      });
    }
    for (auto& thread : threads) thread.join();
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(40000), h.snapshot().cumulative.back());
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(40000), c.value());
    // sum of 0.001 * (0..49) repeated 200 times per thread, 4 threads
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4 * 200 * 0.001 * 1225, h.snapshot().sum, 1e-6);
  }

  void countersAndGauges() {
    Counter c;
    c.inc();
    c.inc(41);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(42), c.value());
    Gauge g;
    g.set(3.5);
    g.add(-1);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, g.value(), 1e-12);
  }

  void standardBucketsAscend() {
    CPPUNIT_ASSERT_NO_THROW(Histogram{latencyBuckets()});
    CPPUNIT_ASSERT_NO_THROW(Histogram{cycleBuckets()});
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(HistogramTest);
