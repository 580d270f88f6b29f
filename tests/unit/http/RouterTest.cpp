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
};

CPPUNIT_TEST_SUITE_REGISTRATION(RouterTest);
