#include "http/RequestMetrics.hpp"
#include "http/Router.hpp"
#include "telemetry/DaemonMetrics.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using namespace skinpulse::http;

// The route label of the HTTP metrics: the matched pattern, never the raw path.
class RouteLabelTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RouteLabelTest);
  CPPUNIT_TEST(idsBecomeTheTemplate);
  CPPUNIT_TEST(wrongMethodKeepsTheTemplate);
  CPPUNIT_TEST(unknownPathsShareOneLabel);
  CPPUNIT_TEST(unknownMethodsShareOneLabel);
  CPPUNIT_TEST(recordedSeriesCarryTheTemplate);
  CPPUNIT_TEST_SUITE_END();

  Router router_;
  std::map<std::string, std::string> params_;

  std::string routeOf(const std::string& method, const std::string& path) {
    return std::string(router_.match(method, path, params_).route);
  }

 public:
  void setUp() override {
    router_ = Router();
    const Handler none = [](Request&, Response&) {};
    router_.add("GET", "/api/v1/items", none);
    router_.add("GET", "/api/v1/items/:id", none);
    router_.add("GET", "/api/v1/items/:id/history", none);
    router_.add("DELETE", "/api/v1/alerts/:id", none);
  }

  void idsBecomeTheTemplate() {
    CPPUNIT_ASSERT_EQUAL(std::string("/api/v1/items/:id"), routeOf("GET", "/api/v1/items/17000"));
    CPPUNIT_ASSERT_EQUAL(std::string("/api/v1/items/:id/history"),
                         routeOf("HEAD", "/api/v1/items/AK-47%20%7C%20Redline/history"));
    CPPUNIT_ASSERT_EQUAL(std::string("/api/v1/items"), routeOf("GET", "/api/v1/items"));
  }

  void wrongMethodKeepsTheTemplate() {
    CPPUNIT_ASSERT_EQUAL(std::string("/api/v1/alerts/:id"), routeOf("GET", "/api/v1/alerts/9"));
  }

  void unknownPathsShareOneLabel() {
    CPPUNIT_ASSERT_EQUAL(std::string("unmatched"), routeOf("GET", "/wp-admin/setup.php"));
    CPPUNIT_ASSERT_EQUAL(std::string("unmatched"), routeOf("GET", "/api/v1/items/1/nope"));
  }

  void unknownMethodsShareOneLabel() {
    CPPUNIT_ASSERT_EQUAL(std::string("GET"), std::string(methodLabel("GET")));
    CPPUNIT_ASSERT_EQUAL(std::string("OPTIONS"), std::string(methodLabel("OPTIONS")));
    CPPUNIT_ASSERT_EQUAL(std::string("other"), std::string(methodLabel("BREW")));
    CPPUNIT_ASSERT_EQUAL(std::string("other"), std::string(methodLabel("get")));
  }

  void recordedSeriesCarryTheTemplate() {
    recordRequest("/api/v1/items/:id", "GET", 404, 0.003);
    recordRequest("/api/v1/items/:id", "GET", 404, 0.004);
    const std::string page = skinpulse::telemetry::Registry::global().render();
    CPPUNIT_ASSERT(page.find("skinpulse_http_requests_total{route=\"/api/v1/items/:id\","
                             "method=\"GET\",status=\"404\"} 2\n") != std::string::npos);
    CPPUNIT_ASSERT(page.find("skinpulse_http_request_duration_seconds_bucket{route=\"/api/v1/"
                             "items/:id\",method=\"GET\",le=\"0.005\"} 2\n") != std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RouteLabelTest);
