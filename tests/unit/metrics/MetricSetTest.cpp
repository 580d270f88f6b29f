// MetricSet: the rules a metric's value names must follow, checked once at start, and
// what happens when a metric misbehaves later.

#include "metrics/MetricSet.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <stdexcept>

using namespace skinpulse;
using metrics::MetricSet;

namespace {

class Fixed final : public sdk::Metric {
 public:
  explicit Fixed(sdk::MetricValues values) : values_(std::move(values)) {}
  sdk::MetricValues compute(const sdk::WindowStats&) const override { return values_; }

 private:
  sdk::MetricValues values_;
};

class Flaky final : public sdk::Metric {
 public:
  sdk::MetricValues compute(const sdk::WindowStats& stats) const override {
    if (stats.n == 7) throw std::runtime_error("seven");
    if (stats.n == 8) return {{"other", 1}};
    return {{"flaky", 1}};
  }
};

std::string refusal(std::vector<MetricSet::Entry> entries) {
  try {
    MetricSet set(std::move(entries));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class MetricSetTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MetricSetTest);
  CPPUNIT_TEST(testGroupsAreRenderedTogether);
  CPPUNIT_TEST(testUnusableNamesAreRefusedNamingTheMetric);
  CPPUNIT_TEST(testAThrowingOrForgetfulMetricGivesNaN);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testGroupsAreRenderedTogether() {
    const Fixed a({{"x.one", 1}, {"y", 2}});
    const Fixed b({{"x.two", 3}, {"z", 4}});
    const MetricSet set({{"a", &a}, {"b", &b}});
    std::vector<std::string> names;
    for (const auto& f : set.fields()) names.push_back(f.name);
    CPPUNIT_ASSERT((names == std::vector<std::string>{"x.one", "x.two", "y", "z"}));
    std::vector<double> values;
    set.evaluate(sdk::WindowStats{}, values);
    CPPUNIT_ASSERT((values == std::vector<double>{1, 3, 2, 4}));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, *set.find("y"));
    CPPUNIT_ASSERT(!set.find("x"));
  }

  void testUnusableNamesAreRefusedNamingTheMetric() {
    const Fixed reserved({{"samples", 1}});
    const Fixed upper({{"Range", 1}});
    const Fixed deep({{"a.b.c", 1}});
    const Fixed none({});
    const Fixed plain({{"bands", 1}});
    const Fixed grouped({{"bands.upper", 1}});
    const Fixed again({{"bands", 2}});
    CPPUNIT_ASSERT(refusal({{"r", &reserved}}).find("metric 'r'") != std::string::npos);
    CPPUNIT_ASSERT(refusal({{"u", &upper}}).find("malformed name 'Range'") != std::string::npos);
    CPPUNIT_ASSERT(!refusal({{"d", &deep}}).empty());
    CPPUNIT_ASSERT(refusal({{"n", &none}}).find("no values") != std::string::npos);
    const auto clash = refusal({{"p", &plain}, {"g", &grouped}});
    CPPUNIT_ASSERT_MESSAGE(clash, clash.find("metric 'g'") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(clash, clash.find("metric 'p'") != std::string::npos);
    CPPUNIT_ASSERT(!refusal({{"p", &plain}, {"q", &again}}).empty());
  }

  void testAThrowingOrForgetfulMetricGivesNaN() {
    const Flaky flaky;
    const Fixed fine({{"fine", 5}});
    const MetricSet set({{"flaky", &flaky}, {"fine", &fine}});
    std::vector<double> values;
    sdk::WindowStats stats;
    stats.n = 7;
    set.evaluate(stats, values);
    CPPUNIT_ASSERT(std::isnan(values[0]));
    CPPUNIT_ASSERT_EQUAL(5.0, values[1]);
    stats.n = 8;
    set.evaluate(stats, values);
    CPPUNIT_ASSERT(std::isnan(values[0]));
    stats.n = 3;
    set.evaluate(stats, values);
    CPPUNIT_ASSERT_EQUAL(1.0, values[0]);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MetricSetTest);
