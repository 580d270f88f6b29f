#include "http/GuardChain.hpp"
#include "http/HttpError.hpp"
#include "http/Router.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>
#include <vector>

using namespace skinpulse;

namespace {

// Records that it ran; refuses with `code` when one is given.
class RecordingGuard : public http::RequestGuard {
 public:
  RecordingGuard(std::vector<std::string>& log, std::string name, std::string code = {})
      : log_(log), name_(std::move(name)), code_(std::move(code)) {}
  void admit(http::Request&, const http::RouteOptions&) const override {
    log_.push_back(name_);
    if (!code_.empty()) throw http::HttpError(429, code_, "refused by " + name_);
  }

 private:
  std::vector<std::string>& log_;
  std::string name_;
  std::string code_;
};

}  // namespace

class GuardChainTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(GuardChainTest);
  CPPUNIT_TEST(testGuardsRunInOrder);
  CPPUNIT_TEST(testTheFirstRefusalStopsTheRest);
  CPPUNIT_TEST(testNullGuardsAreSkipped);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testGuardsRunInOrder() {
    std::vector<std::string> log;
    RecordingGuard first(log, "quota"), second(log, "auth");
    http::GuardChain chain({&first, &second});
    http::Request request;
    chain.admit(request, http::RouteOptions{});
    CPPUNIT_ASSERT((log == std::vector<std::string>{"quota", "auth"}));
  }

  void testTheFirstRefusalStopsTheRest() {
    std::vector<std::string> log;
    RecordingGuard first(log, "quota", "rate_limited"), second(log, "auth");
    http::GuardChain chain({&first, &second});
    http::Request request;
    try {
      chain.admit(request, http::RouteOptions{});
      CPPUNIT_FAIL("the refusal was swallowed");
    } catch (const http::HttpError& error) {
      CPPUNIT_ASSERT_EQUAL(std::string("rate_limited"), error.code());
    }
    CPPUNIT_ASSERT((log == std::vector<std::string>{"quota"}));
  }

  void testNullGuardsAreSkipped() {
    std::vector<std::string> log;
    RecordingGuard only(log, "auth");
    http::GuardChain chain({nullptr, &only});
    http::Request request;
    chain.admit(request, http::RouteOptions{});
    CPPUNIT_ASSERT((log == std::vector<std::string>{"auth"}));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(GuardChainTest);
