// Exact conversion of USD cents to minor units and back (docs/api.md §14): rounded once,
// half away from zero, per ISO 4217 exponent (JPY 0, EUR 2, KWD 3), negatives symmetric.
// The conversion cases are tests/vectors/money.json, which the dashboard's test reads too.

#include "currency/Iso4217.hpp"
#include "currency/Money.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

#include <fstream>
#include <string>

using namespace skinpulse::currency;

namespace {

Rate rate(const char* code, std::int64_t numerator, std::int64_t denominator) {
  return Rate{code, numerator, denominator, 1'795'000'000, "test"};
}

std::int64_t from(std::int64_t cents, const Rate& r) {
  return fromUsdCents(cents, r, *currencyExponent(r.currency)).value();
}

Poco::JSON::Object::Ptr vectors() {
  std::ifstream in(std::string(SKINPULSE_SOURCE_DIR) + "/tests/vectors/money.json");
  CPPUNIT_ASSERT_MESSAGE("tests/vectors/money.json is readable", in.good());
  Poco::JSON::Parser parser;
  return parser.parse(in).extract<Poco::JSON::Object::Ptr>();
}

}  // namespace

class MoneyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MoneyTest);
  CPPUNIT_TEST(exponentsFollowIso4217);
  CPPUNIT_TEST(fromUsdCentsFollowsTheSharedVectors);
  CPPUNIT_TEST(toUsdCentsFollowsTheSharedVectors);
  CPPUNIT_TEST(mulDivRoundFollowsTheSharedVectors);
  CPPUNIT_TEST(fractionsAreReducedAndBounded);
  CPPUNIT_TEST(overflowIsRefusedNotWrapped);
  CPPUNIT_TEST_SUITE_END();

 public:
  void exponentsFollowIso4217() {
    CPPUNIT_ASSERT_EQUAL(2, *currencyExponent("USD"));
    CPPUNIT_ASSERT_EQUAL(2, *currencyExponent("EUR"));
    CPPUNIT_ASSERT_EQUAL(0, *currencyExponent("JPY"));
    CPPUNIT_ASSERT_EQUAL(0, *currencyExponent("KRW"));
    CPPUNIT_ASSERT_EQUAL(0, *currencyExponent("ISK"));
    CPPUNIT_ASSERT_EQUAL(3, *currencyExponent("KWD"));
    CPPUNIT_ASSERT_EQUAL(3, *currencyExponent("BHD"));
    CPPUNIT_ASSERT(!currencyExponent("XXZ"));
    CPPUNIT_ASSERT(!currencyExponent("eur"));  // codes are exact
    // Every currency the ECB publishes is known.
    for (const char* code :
         {"USD", "JPY", "BGN", "CZK", "DKK", "GBP", "HUF", "PLN", "RON", "SEK", "CHF",
          "ISK", "NOK", "TRY", "AUD", "BRL", "CAD", "CNY", "HKD", "IDR", "ILS", "INR",
          "KRW", "MXN", "MYR", "NZD", "PHP", "SGD", "THB", "ZAR", "EUR"}) {
      CPPUNIT_ASSERT_MESSAGE(code, currencyExponent(code).has_value());
    }
  }

  // The conversion cases live in tests/vectors/money.json, shared with the dashboard's
  // test (tests/js/money.test.mjs): the browser converts live updates as the daemon does.
  void fromUsdCentsFollowsTheSharedVectors() {
    const auto cases = vectors()->getArray("from_usd_cents");
    CPPUNIT_ASSERT(cases->size() >= 15);
    for (std::size_t i = 0; i < cases->size(); ++i) {
      const auto c = cases->getObject(static_cast<unsigned>(i));
      const std::string why = c->getValue<std::string>("why");
      const Rate r =
          rate(c->getValue<std::string>("currency").c_str(), c->getValue<std::int64_t>("numerator"),
               c->getValue<std::int64_t>("denominator"));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(why, c->getValue<int>("exponent"),
                                   *currencyExponent(r.currency));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(why, c->getValue<std::int64_t>("minor"),
                                   from(c->getValue<std::int64_t>("cents"), r));
    }
  }

  void toUsdCentsFollowsTheSharedVectors() {
    const auto cases = vectors()->getArray("to_usd_cents");
    CPPUNIT_ASSERT(cases->size() >= 6);
    for (std::size_t i = 0; i < cases->size(); ++i) {
      const auto c = cases->getObject(static_cast<unsigned>(i));
      const Rate r =
          rate(c->getValue<std::string>("currency").c_str(), c->getValue<std::int64_t>("numerator"),
               c->getValue<std::int64_t>("denominator"));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(
          c->getValue<std::string>("why"), c->getValue<std::int64_t>("cents"),
          toUsdCents(c->getValue<std::int64_t>("amount"), c->getValue<int>("amount_exponent"), r)
              .value());
    }
  }

  void mulDivRoundFollowsTheSharedVectors() {
    const auto cases = vectors()->getArray("mul_div_round");
    for (std::size_t i = 0; i < cases->size(); ++i) {
      const auto c = cases->getObject(static_cast<unsigned>(i));
      const auto got = mulDivRound(c->getValue<std::int64_t>("a"), c->getValue<std::int64_t>("b"),
                                   c->getValue<std::int64_t>("c"));
      if (c->isNull("result")) {
        CPPUNIT_ASSERT_MESSAGE(c->getValue<std::string>("why"), !got);
      } else {
        CPPUNIT_ASSERT_EQUAL_MESSAGE(c->getValue<std::string>("why"),
                                     c->getValue<std::int64_t>("result"), got.value());
      }
    }
  }

  void fractionsAreReducedAndBounded() {
    const auto reduced = normaliseRate(rate("EUR", 10000, 10512));
    CPPUNIT_ASSERT(reduced);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(625), reduced->numerator);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(657), reduced->denominator);
    CPPUNIT_ASSERT(!normaliseRate(rate("EUR", 0, 1)));
    CPPUNIT_ASSERT(!normaliseRate(rate("EUR", 1, -1)));
    CPPUNIT_ASSERT(!normaliseRate(rate("ZZZ", 1, 1)));
    CPPUNIT_ASSERT(!normaliseRate(rate("EUR", kMaxRateTerm + 1, 1)));
  }

  void overflowIsRefusedNotWrapped() {
    const Rate big = rate("IDR", kMaxRateTerm, 1);
    CPPUNIT_ASSERT(!fromUsdCents(INT64_MAX, big, 2));
    // INT64 extremes stay here: a JavaScript number cannot carry them (the shared vectors
    // keep to amounts both sides represent exactly).
    CPPUNIT_ASSERT(!mulDivRound(INT64_MAX, 2, 1));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MoneyTest);
