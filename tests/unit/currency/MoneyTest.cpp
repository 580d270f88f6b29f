// Exact conversion of USD cents to minor units and back (docs/api.md §14): rounded once,
// half away from zero, per ISO 4217 exponent (JPY 0, EUR 2, KWD 3), negatives symmetric.

#include "currency/Iso4217.hpp"
#include "currency/Money.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::currency;

namespace {

Rate rate(const char* code, std::int64_t numerator, std::int64_t denominator) {
  return Rate{code, numerator, denominator, 1'795'000'000, "test"};
}

std::int64_t from(std::int64_t cents, const Rate& r) {
  return fromUsdCents(cents, r, *currencyExponent(r.currency)).value();
}

}  // namespace

class MoneyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MoneyTest);
  CPPUNIT_TEST(exponentsFollowIso4217);
  CPPUNIT_TEST(euroRoundsHalfAwayFromZero);
  CPPUNIT_TEST(yenHasNoMinorUnit);
  CPPUNIT_TEST(kuwaitiDinarHasThreeDecimals);
  CPPUNIT_TEST(toUsdCentsIsExactToo);
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

  void euroRoundsHalfAwayFromZero() {
    const Rate eur = rate("EUR", 95, 100);                    // 0.95 per USD
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1), from(1, eur));      // 0.95 → 1
    CPPUNIT_ASSERT_EQUAL(std::int64_t(48), from(50, eur));    // 47.5 → 48
    CPPUNIT_ASSERT_EQUAL(std::int64_t(-48), from(-50, eur));  // −47.5 → −48
    CPPUNIT_ASSERT_EQUAL(std::int64_t(47), from(49, eur));    // 46.55 → 47
    CPPUNIT_ASSERT_EQUAL(std::int64_t(0), from(0, eur));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4000), from(4210, eur));  // 3999.5 → 4000
  }

  void yenHasNoMinorUnit() {
    const Rate jpy = rate("JPY", 1512, 10);                      // 151.2 per USD
    CPPUNIT_ASSERT_EQUAL(std::int64_t(2), from(1, jpy));         // 1.512 yen → 2
    CPPUNIT_ASSERT_EQUAL(std::int64_t(151), from(100, jpy));     // 151.2 → 151
    const Rate half = rate("JPY", 1505, 10);                     // 150.5 per USD
    CPPUNIT_ASSERT_EQUAL(std::int64_t(151), from(100, half));    // 150.5 → 151
    CPPUNIT_ASSERT_EQUAL(std::int64_t(-151), from(-100, half));  // −150.5 → −151
    CPPUNIT_ASSERT_EQUAL(std::int64_t(149), from(99, half));     // 148.995 → 149
  }

  void kuwaitiDinarHasThreeDecimals() {
    const Rate kwd = rate("KWD", 307, 1000);                    // 0.307 per USD
    CPPUNIT_ASSERT_EQUAL(std::int64_t(3), from(1, kwd));        // 3.07 fils → 3
    CPPUNIT_ASSERT_EQUAL(std::int64_t(154), from(50, kwd));     // 153.5 → 154
    CPPUNIT_ASSERT_EQUAL(std::int64_t(-154), from(-50, kwd));   // −153.5 → −154
    CPPUNIT_ASSERT_EQUAL(std::int64_t(3070), from(1000, kwd));  // $10 = 3.070 KWD
  }

  void toUsdCentsIsExactToo() {
    const Rate eur = rate("EUR", 95, 100);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(100), toUsdCents(95, 2, eur).value());  // €0.95 = $1
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1), toUsdCents(1, 2, eur).value());     // 1.0526 → 1
    const Rate jpy = rate("JPY", 1512, 10);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1000), toUsdCents(1512, 0, jpy).value());  // ¥1512 = $10
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1000), toUsdCents(151200, 2, jpy).value());
    const Rate kwd = rate("KWD", 307, 1000);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1000), toUsdCents(3070, 3, kwd).value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(-1000), toUsdCents(-3070, 3, kwd).value());
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
    CPPUNIT_ASSERT(!mulDivRound(1, 1, 0));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(3), mulDivRound(5, 1, 2).value());    // 2.5 → 3
    CPPUNIT_ASSERT_EQUAL(std::int64_t(-3), mulDivRound(-5, 1, 2).value());  // −2.5 → −3
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MoneyTest);
