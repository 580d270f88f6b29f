#include "telemetry/DaemonMetrics.hpp"
#include "telemetry/Registry.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <set>
#include <stdexcept>
#include <string>

using namespace skinpulse::telemetry;

class RegistryTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RegistryTest);
  CPPUNIT_TEST(rendersAFullPageExactly);
  CPPUNIT_TEST(emptyLabelledFamilyRendersNothing);
  CPPUNIT_TEST(childrenAreStableAndSorted);
  CPPUNIT_TEST(wrongLabelCountThrows);
  CPPUNIT_TEST(redeclaringReturnsTheSameFamily);
  CPPUNIT_TEST(collectorsLiveAsLongAsTheirHandle);
  CPPUNIT_TEST(daemonMetricsAreDeclaredOnce);
  CPPUNIT_TEST_SUITE_END();

 public:
  void rendersAFullPageExactly() {
    Registry r;
    r.counter("app_requests_total", "Requests.", {"route", "status"})
        .labels({"/items/:id", "200"})
        .inc(3);
    r.gauge("app_clients", "Clients.").get().set(2);
    auto& h = r.histogram("app_seconds", "Latency.", {"route"}, {0.1, 1});
    h.labels({"/x"}).observe(0.05);
    h.labels({"/x"}).observe(0.5);
    h.labels({"/x"}).observe(5);
    const std::string expected =
        "# HELP app_requests_total Requests.\n"
        "# TYPE app_requests_total counter\n"
        "app_requests_total{route=\"/items/:id\",status=\"200\"} 3\n"
        "# HELP app_clients Clients.\n"
        "# TYPE app_clients gauge\n"
        "app_clients 2\n"
        "# HELP app_seconds Latency.\n"
        "# TYPE app_seconds histogram\n"
        "app_seconds_bucket{route=\"/x\",le=\"0.1\"} 1\n"
        "app_seconds_bucket{route=\"/x\",le=\"1\"} 2\n"
        "app_seconds_bucket{route=\"/x\",le=\"+Inf\"} 3\n"
        "app_seconds_sum{route=\"/x\"} 5.55\n"
        "app_seconds_count{route=\"/x\"} 3\n";
    CPPUNIT_ASSERT_EQUAL(expected, r.render());
  }

  void emptyLabelledFamilyRendersNothing() {
    Registry r;
    r.counter("app_errors_total", "Errors.", {"kind"});
    CPPUNIT_ASSERT_EQUAL(std::string(), r.render());
  }

  void childrenAreStableAndSorted() {
    Registry r;
    auto& family = r.counter("c_total", "C.", {"k"});
    auto& b = family.labels({"b"});
    family.labels({"a"}).inc();
    CPPUNIT_ASSERT_EQUAL(&b, &family.labels({"b"}));
    b.inc(2);
    CPPUNIT_ASSERT_EQUAL(std::string("# HELP c_total C.\n# TYPE c_total counter\n"
                                     "c_total{k=\"a\"} 1\nc_total{k=\"b\"} 2\n"),
                         r.render());
  }

  void wrongLabelCountThrows() {
    Registry r;
    auto& family = r.counter("c_total", "C.", {"a", "b"});
    CPPUNIT_ASSERT_THROW(family.labels({"x"}), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(family.get(), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(r.counter("bad-name", "x"), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(r.counter("ok_total", "x", {"le"}), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(r.histogram("h", "x", {}, {2, 1}), std::invalid_argument);
  }

  void redeclaringReturnsTheSameFamily() {
    Registry r;
    auto& one = r.counter("c_total", "C.", {"a"});
    CPPUNIT_ASSERT_EQUAL(&one, &r.counter("c_total", "C.", {"a"}));
    CPPUNIT_ASSERT_THROW(r.counter("c_total", "C.", {"b"}), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(r.gauge("c_total", "C.", {"a"}), std::invalid_argument);
  }

  void collectorsLiveAsLongAsTheirHandle() {
    Registry r;
    {
      auto handle = r.addCollector([](std::vector<CollectedFamily>& out) {
        out.push_back(CollectedFamily{
            "p_open_fds", "Fds.", Type::kGauge, {"kind"}, {{{"socket"}, 4}, {{"file"}, 2.5}}});
      });
      CPPUNIT_ASSERT_EQUAL(std::string("# HELP p_open_fds Fds.\n# TYPE p_open_fds gauge\n"
                                       "p_open_fds{kind=\"socket\"} 4\n"
                                       "p_open_fds{kind=\"file\"} 2.5\n"),
                           r.render());
    }
    CPPUNIT_ASSERT_EQUAL(std::string(), r.render());
  }

  void daemonMetricsAreDeclaredOnce() {
    auto& m = metrics();
    CPPUNIT_ASSERT_EQUAL(&m, &metrics());
    observeCycleStage(CycleStage::kStore, 0.02);
    observeCycle(1.5);
    const std::string page = Registry::global().render();
    CPPUNIT_ASSERT(page.find("skinpulse_cycle_stage_duration_seconds_count{stage=\"store\"} 1\n") !=
                   std::string::npos);
    CPPUNIT_ASSERT(
        page.find("skinpulse_cycle_stage_duration_seconds_count{stage=\"fanout\"} 0\n") !=
        std::string::npos);
    CPPUNIT_ASSERT(page.find("skinpulse_cycle_duration_seconds_sum 1.5\n") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::string("latest_prices"),
                         std::string(stageName(CycleStage::kLatestPrices)));
    // Every family name is a skinpulse_ name, and counters end in _total.
    std::set<std::string> seen;
    std::size_t at = 0;
    while ((at = page.find("# TYPE ", at)) != std::string::npos) {
      const auto end = page.find('\n', at);
      const std::string line = page.substr(at + 7, end - at - 7);
      const std::string name = line.substr(0, line.find(' '));
      CPPUNIT_ASSERT(name.rfind("skinpulse_", 0) == 0);
      CPPUNIT_ASSERT(seen.insert(name).second);
      if (line.substr(line.find(' ') + 1) == "counter") {
        CPPUNIT_ASSERT(name.size() > 6 && name.compare(name.size() - 6, 6, "_total") == 0);
      }
      at = end;
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RegistryTest);
