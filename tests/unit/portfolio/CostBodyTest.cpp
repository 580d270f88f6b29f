#include "portfolio/CostBody.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::portfolio;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;

std::string refusal(const std::string& body) {
  try {
    parseCostBody(body, kNow);
  } catch (const InvalidHolding& e) {
    return e.field();
  }
  return "accepted";
}

}  // namespace

class CostBodyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CostBodyTest);
  CPPUNIT_TEST(bothFields);
  CPPUNIT_TEST(absentIsUnchangedNullClears);
  CPPUNIT_TEST(malformedBodies);
  CPPUNIT_TEST(badFieldsNameTheField);
  CPPUNIT_TEST_SUITE_END();

 public:
  void bothFields() {
    const auto change =
        parseCostBody(R"({"cost_basis":1234,"acquired_at":"2025-03-01T12:00:00Z"})", kNow);
    CPPUNIT_ASSERT(change.set_cost_basis && change.set_acquired_at);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1234}, *change.cost_basis);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1740830400}, *change.acquired_at);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, *parseCostBody(R"({"cost_basis":0})", kNow).cost_basis);
  }

  void absentIsUnchangedNullClears() {
    auto change = parseCostBody(R"({"cost_basis":null})", kNow);
    CPPUNIT_ASSERT(change.set_cost_basis && !change.cost_basis);
    CPPUNIT_ASSERT(!change.set_acquired_at);
    change = parseCostBody(R"({"acquired_at":null})", kNow);
    CPPUNIT_ASSERT(!change.set_cost_basis);
    CPPUNIT_ASSERT(change.set_acquired_at && !change.acquired_at);
  }

  void malformedBodies() {
    for (const char* body : {"", "{", "[]", "null", "12", "\"x\"", "{\"cost_basis\":1}x"}) {
      CPPUNIT_ASSERT_THROW_MESSAGE(body, parseCostBody(body, kNow), common::MalformedBody);
    }
  }

  void badFieldsNameTheField() {
    CPPUNIT_ASSERT_EQUAL(std::string("cost_basis"), refusal(R"({"cost_basis":-1})"));
    CPPUNIT_ASSERT_EQUAL(std::string("cost_basis"), refusal(R"({"cost_basis":12.5})"));
    CPPUNIT_ASSERT_EQUAL(std::string("cost_basis"), refusal(R"({"cost_basis":"12"})"));
    CPPUNIT_ASSERT_EQUAL(std::string("cost_basis"), refusal(R"({"cost_basis":true})"));
    CPPUNIT_ASSERT_EQUAL(std::string("cost_basis"),
                         refusal(R"({"cost_basis":18446744073709551615})"));
    CPPUNIT_ASSERT_EQUAL(std::string("cost_basis"), refusal(R"({"cost_basis":1000000000001})"));
    CPPUNIT_ASSERT_EQUAL(std::string("accepted"), refusal(R"({"cost_basis":1000000000000})"));
    CPPUNIT_ASSERT_EQUAL(std::string("acquired_at"), refusal(R"({"acquired_at":"yesterday"})"));
    CPPUNIT_ASSERT_EQUAL(std::string("acquired_at"), refusal(R"({"acquired_at":1700000000})"));
    CPPUNIT_ASSERT_EQUAL(std::string("acquired_at"),
                         refusal(R"({"acquired_at":"2011-12-31T23:59:59Z"})"));
    CPPUNIT_ASSERT_EQUAL(std::string("acquired_at"),
                         refusal(R"({"acquired_at":"2027-01-16T08:00:01Z"})"));  // > now + 1 d
    CPPUNIT_ASSERT_EQUAL(std::string("accepted"),
                         refusal(R"({"acquired_at":"2027-01-16T08:00:00Z"})"));
    CPPUNIT_ASSERT_EQUAL(std::string("quantity"), refusal(R"({"cost_basis":1,"quantity":2})"));
    CPPUNIT_ASSERT_EQUAL(std::string("cost_basis"), refusal("{}"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{64}, refusal("{\"" + std::string(500, 'x') + "\":1}").size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CostBodyTest);
