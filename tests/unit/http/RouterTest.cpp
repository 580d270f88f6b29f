#include "http/Dispatcher.hpp"
#include "http/Router.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::http;

class RouterTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RouterTest);
  CPPUNIT_TEST(matchesLiteralAndParameterSegments);
  CPPUNIT_TEST(wrongMethodListsAllowedMethods);
  CPPUNIT_TEST(headIsServedByGet);
  CPPUNIT_TEST(unknownPathsDoNotMatch);
  CPPUNIT_TEST(aPrefixPolicyCoversItsSegmentsOnly);
  CPPUNIT_TEST(aRouteKeepsItsOwnRateLimitScope);
  CPPUNIT_TEST(unmatchedPathsAskThePrefixesAndOtherMethods);
  CPPUNIT_TEST(badPrefixesAreRefused);
  CPPUNIT_TEST(aRouteMayTakeItsOwnBodySize);
  CPPUNIT_TEST_SUITE_END();

  Router router_;
  std::string hit_;

 public:
  void setUp() override {
    router_ = Router();
    router_.add("GET", "/api/v1/items", [this](Request&, Response&) { hit_ = "list"; });
    router_.add("GET", "/api/v1/items/:id", [this](Request&, Response&) { hit_ = "detail"; });
    router_.add("GET", "/api/v1/items/:id/history", [this](Request&, Response&) { hit_ = "h"; });
    router_.add("POST", "/api/v1/portfolio/import", [this](Request&, Response&) { hit_ = "imp"; });
  }

  void matchesLiteralAndParameterSegments() {
    std::map<std::string, std::string> params;
    auto match = router_.match("GET", "/api/v1/items/42/history", params);
    CPPUNIT_ASSERT(match.handler != nullptr);
    Request request;
    Response response;
    (*match.handler)(request, response);
    CPPUNIT_ASSERT_EQUAL(std::string("h"), hit_);
    CPPUNIT_ASSERT_EQUAL(std::string("42"), params.at("id"));
  }

  void wrongMethodListsAllowedMethods() {
    std::map<std::string, std::string> params;
    auto match = router_.match("POST", "/api/v1/items/1", params);
    CPPUNIT_ASSERT(match.handler == nullptr);
    const std::vector<std::string> allowed = {"GET", "HEAD"};
    CPPUNIT_ASSERT(allowed == match.allowed);
    match = router_.match("GET", "/api/v1/portfolio/import", params);
    CPPUNIT_ASSERT(std::vector<std::string>{"POST"} == match.allowed);
  }

  void headIsServedByGet() {
    std::map<std::string, std::string> params;
    CPPUNIT_ASSERT(router_.match("HEAD", "/api/v1/items", params).handler != nullptr);
  }

  void unknownPathsDoNotMatch() {
    std::map<std::string, std::string> params;
    for (const char* path : {"/api/v1/items/", "/api/v1/items//history", "/api/v1", "",
                             "/api/v1/items/1/history/x", "api/v1/items"}) {
      const auto match = router_.match("GET", path, params);
      CPPUNIT_ASSERT_MESSAGE(path, match.handler == nullptr && match.allowed.empty());
    }
  }

  void aPrefixPolicyCoversItsSegmentsOnly() {
    router_.policy("/api/v1/portfolio", PathPolicy{.no_store = true, .rate_limit_scope = "p"});
    router_.add("GET", "/api/v1/portfolio", [](Request&, Response&) {});
    router_.add("GET", "/api/v1/portfolios", [](Request&, Response&) {});
    std::map<std::string, std::string> params;
    for (const char* path : {"/api/v1/portfolio", "/api/v1/portfolio/import"}) {
      const auto method = std::string(path) == "/api/v1/portfolio" ? "GET" : "POST";
      const auto match = router_.match(method, path, params);
      CPPUNIT_ASSERT_MESSAGE(path, match.handler != nullptr);
      CPPUNIT_ASSERT_MESSAGE(path, match.options.no_store);
      CPPUNIT_ASSERT_EQUAL(std::string("p"), match.options.rate_limit_scope);
    }
    const auto lookalike = router_.match("GET", "/api/v1/portfolios", params);
    CPPUNIT_ASSERT(!lookalike.options.no_store);
    CPPUNIT_ASSERT(lookalike.options.rate_limit_scope.empty());
    CPPUNIT_ASSERT(!router_.match("GET", "/api/v1/items", params).options.no_store);
  }

  void aRouteKeepsItsOwnRateLimitScope() {
    router_.policy("/api/v1/auth", PathPolicy{.no_store = true, .rate_limit_scope = "auth"});
    RouteOptions own;
    own.rate_limit_scope = "strict";
    router_.add(
        "POST", "/api/v1/auth/login", [](Request&, Response&) {}, own);
    std::map<std::string, std::string> params;
    const auto match = router_.match("POST", "/api/v1/auth/login", params);
    CPPUNIT_ASSERT_EQUAL(std::string("strict"), match.options.rate_limit_scope);
    CPPUNIT_ASSERT(match.options.no_store);  // the prefix adds what the route left out
  }

  void unmatchedPathsAskThePrefixesAndOtherMethods() {
    router_.policy("/api/v1/alerts", PathPolicy{.no_store = true});
    RouteOptions csv;
    csv.no_store = true;
    router_.add(
        "GET", "/api/v1/portfolio.csv", [](Request&, Response&) {}, csv);
    const Router::Match none;  // a refusal before routing, or a 404
    CPPUNIT_ASSERT(router_.noStore("/api/v1/alerts", none));
    CPPUNIT_ASSERT(router_.noStore("/api/v1/alerts/9/nothing", none));
    CPPUNIT_ASSERT(!router_.noStore("/api/v1/alertsx", none));
    CPPUNIT_ASSERT(router_.noStore("/api/v1/portfolio.csv", none));  // 405 on POST
    CPPUNIT_ASSERT(!router_.noStore("/api/v1/portfolio.csv/x", none));
    CPPUNIT_ASSERT(!router_.noStore("/api/v1/items", none));
    CPPUNIT_ASSERT(!router_.noStore("", none));
    // A matched route answers for itself.
    std::map<std::string, std::string> params;
    CPPUNIT_ASSERT(
        !router_.noStore("/api/v1/items", router_.match("GET", "/api/v1/items", params)));
  }

  void badPrefixesAreRefused() {
    CPPUNIT_ASSERT_THROW(router_.policy("", PathPolicy{}), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(router_.policy("api", PathPolicy{}), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(router_.policy("/api/", PathPolicy{}), std::invalid_argument);
  }

  void aRouteMayTakeItsOwnBodySize() {
    // No route asks: the server's cap, whatever the path.
    CPPUNIT_ASSERT_EQUAL(std::size_t{65536},
                         router_.bodyLimit("POST", "/api/v1/portfolio/import", 65536));
    RouteOptions file;
    file.max_body_bytes = 1 << 20;
    router_.add(
        "POST", "/api/v1/files/:name", [](Request&, Response&) {}, file);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1} << 20, router_.bodyLimit("POST", "/api/v1/files/a", 65536));
    // Only that method and path: the others keep the server's.
    CPPUNIT_ASSERT_EQUAL(std::size_t{65536}, router_.bodyLimit("PUT", "/api/v1/files/a", 65536));
    CPPUNIT_ASSERT_EQUAL(std::size_t{65536}, router_.bodyLimit("POST", "/api/v1/files", 65536));
    CPPUNIT_ASSERT_EQUAL(std::size_t{65536},
                         router_.bodyLimit("POST", "/api/v1/portfolio/import", 65536));
    CPPUNIT_ASSERT_EQUAL(std::size_t{65536}, router_.bodyLimit("POST", "", 65536));
    // The Dispatcher asks the same.
    const Dispatcher dispatcher(router_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1} << 20,
                         dispatcher.bodyLimit("POST", "/api/v1/files/b", 65536));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RouterTest);
