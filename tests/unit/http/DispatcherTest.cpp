#include "http/Dispatcher.hpp"
#include "http/HttpError.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::http;

namespace {

Poco::JSON::Object::Ptr parse(const std::string& body) {
  Poco::JSON::Parser parser;
  return parser.parse(body).extract<Poco::JSON::Object::Ptr>();
}

std::string header(const Response& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "(absent)";
}

}  // namespace

class DispatcherTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DispatcherTest);
  CPPUNIT_TEST(successCarriesSecurityHeaders);
  CPPUNIT_TEST(notFoundIsProblemJson);
  CPPUNIT_TEST(methodNotAllowedHasAllow);
  CPPUNIT_TEST(bodyOnBodylessEndpointIsRefused);
  CPPUNIT_TEST(handlerErrorsBecomeProblems);
  CPPUNIT_TEST(unexpectedExceptionsAre500WithoutDetails);
  CPPUNIT_TEST(authAndPortfolioAreNotCached);
  CPPUNIT_TEST_SUITE_END();

  Router router_;

  Response run(const std::string& method, const std::string& path, const std::string& body = "") {
    Dispatcher dispatcher(router_);
    Request request;
    request.method = method;
    request.path = path;
    request.body = body;
    Response response;
    dispatcher.dispatch(request, response);
    return response;
  }

  void assertSecurityHeaders(const Response& response) {
    CPPUNIT_ASSERT_EQUAL(std::string("nosniff"), header(response, "X-Content-Type-Options"));
    CPPUNIT_ASSERT_EQUAL(std::string("DENY"), header(response, "X-Frame-Options"));
    CPPUNIT_ASSERT_EQUAL(std::string("strict-origin-when-cross-origin"),
                         header(response, "Referrer-Policy"));
    CPPUNIT_ASSERT_EQUAL(std::string("1; mode=block"), header(response, "X-XSS-Protection"));
  }

 public:
  void setUp() override {
    router_ = Router();
    router_.add("GET", "/ok", [](Request&, Response& r) { r.json("{}"); });
    router_.add("GET", "/bad", [](Request&, Response&) {
      throw HttpError::invalidParameter("limit", "must be an integer in 1..500");
    });
    router_.add("GET", "/boom",
                [](Request&, Response&) { throw std::runtime_error("db path /x"); });
    // What AuthApi and PortfolioApi declare (Router::policy, RouteOptions::no_store).
    router_.policy("/api/v1/auth", PathPolicy{.no_store = true});
    router_.policy("/api/v1/portfolio", PathPolicy{.no_store = true});
    router_.add("POST", "/api/v1/auth/logout", [](Request&, Response& r) { r.status = 204; });
    router_.add("GET", "/api/v1/portfolio", [](Request&, Response& r) { r.json("{}"); });
    RouteOptions csv;
    csv.no_store = true;
    router_.add(
        "GET", "/api/v1/portfolio.csv", [](Request&, Response& r) { r.body = "a,b\n"; }, csv);
    router_.add(
        "POST", "/take", [](Request&, Response& r) { r.json("{}"); }, RouteOptions{true});
  }

  void successCarriesSecurityHeaders() {
    const auto response = run("GET", "/ok");
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    assertSecurityHeaders(response);
    CPPUNIT_ASSERT_EQUAL(std::string("(absent)"), header(response, "Cache-Control"));
  }

  void notFoundIsProblemJson() {
    const auto response = run("GET", "/nope");
    CPPUNIT_ASSERT_EQUAL(404, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("application/problem+json"), response.content_type);
    const auto problem = parse(response.body);
    CPPUNIT_ASSERT_EQUAL(std::string("not_found"), problem->getValue<std::string>("code"));
    CPPUNIT_ASSERT_EQUAL(std::string("about:blank"), problem->getValue<std::string>("type"));
    CPPUNIT_ASSERT_EQUAL(std::string("Not Found"), problem->getValue<std::string>("title"));
    CPPUNIT_ASSERT_EQUAL(404, problem->getValue<int>("status"));
    assertSecurityHeaders(response);
  }

  void methodNotAllowedHasAllow() {
    const auto response = run("DELETE", "/ok");
    CPPUNIT_ASSERT_EQUAL(405, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("GET, HEAD"), header(response, "Allow"));
    CPPUNIT_ASSERT_EQUAL(std::string("method_not_allowed"),
                         parse(response.body)->getValue<std::string>("code"));
    assertSecurityHeaders(response);
  }

  void bodyOnBodylessEndpointIsRefused() {
    const auto refused = run("GET", "/ok", "{\"a\":1}");
    CPPUNIT_ASSERT_EQUAL(400, refused.status);
    CPPUNIT_ASSERT_EQUAL(std::string("invalid_body"),
                         parse(refused.body)->getValue<std::string>("code"));
    CPPUNIT_ASSERT_EQUAL(200, run("POST", "/take", "{}").status);
    // Route errors come before body errors (docs/api.md §2 order of checks).
    CPPUNIT_ASSERT_EQUAL(404, run("GET", "/nope", "x").status);
  }

  void handlerErrorsBecomeProblems() {
    const auto response = run("GET", "/bad");
    CPPUNIT_ASSERT_EQUAL(400, response.status);
    const auto problem = parse(response.body);
    CPPUNIT_ASSERT_EQUAL(std::string("invalid_parameter"), problem->getValue<std::string>("code"));
    CPPUNIT_ASSERT(problem->getValue<std::string>("detail").find("limit") != std::string::npos);
  }

  void unexpectedExceptionsAre500WithoutDetails() {
    const auto response = run("GET", "/boom");
    CPPUNIT_ASSERT_EQUAL(500, response.status);
    CPPUNIT_ASSERT(response.body.find("/x") == std::string::npos);
    assertSecurityHeaders(response);
  }

  void authAndPortfolioAreNotCached() {
    CPPUNIT_ASSERT_EQUAL(std::string("no-store"),
                         header(run("POST", "/api/v1/auth/logout"), "Cache-Control"));
    CPPUNIT_ASSERT_EQUAL(std::string("no-store"),
                         header(run("GET", "/api/v1/portfolio"), "Cache-Control"));
    CPPUNIT_ASSERT_EQUAL(std::string("no-store"),
                         header(run("GET", "/api/v1/auth/nothing-here"), "Cache-Control"));
    CPPUNIT_ASSERT_EQUAL(std::string("(absent)"),
                         header(run("GET", "/api/v1/authx"), "Cache-Control"));
    // 405 under the prefix, and on a route that declared no-store under another method.
    CPPUNIT_ASSERT_EQUAL(std::string("no-store"),
                         header(run("DELETE", "/api/v1/portfolio"), "Cache-Control"));
    CPPUNIT_ASSERT_EQUAL(std::string("no-store"),
                         header(run("GET", "/api/v1/portfolio.csv"), "Cache-Control"));
    const auto post_csv = run("POST", "/api/v1/portfolio.csv");
    CPPUNIT_ASSERT_EQUAL(405, post_csv.status);
    CPPUNIT_ASSERT_EQUAL(std::string("no-store"), header(post_csv, "Cache-Control"));
    // The CSV route's no-store is its own: a path below it is not covered.
    CPPUNIT_ASSERT_EQUAL(std::string("(absent)"),
                         header(run("GET", "/api/v1/portfolio.csv/x"), "Cache-Control"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DispatcherTest);
