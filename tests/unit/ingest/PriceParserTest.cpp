#include "ingest/PriceParser.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

std::int64_t cents(std::string_view text) {
  const auto value = ingest::parsePriceText(text);
  return value ? *value : -1;
}

}  // namespace

class PriceParserTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PriceParserTest);
  CPPUNIT_TEST(readsUsAndEuropeanFormats);
  CPPUNIT_TEST(readsRealUpstreamStrings);
  CPPUNIT_TEST(refusesWhatIsNotOnePrice);
  CPPUNIT_TEST(roundsMajorUnitsHalfAwayFromZeroAsWritten);
  CPPUNIT_TEST(quotedPricesMustBePositive);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsUsAndEuropeanFormats() {
    CPPUNIT_ASSERT_EQUAL(INT64_C(123456), cents("$1,234.56"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(123456), cents("1.234,56€"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(123456), cents("1 234,56 €"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(123456), cents("1\xC2\xA0"
                                                "234,56 zł"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(123456), cents("CHF 1'234.56"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(5), cents("$0.05"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(50), cents("0,5"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(1200), cents("12"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(123400), cents("1,234"));  // a group, not 1.234 dollars
    CPPUNIT_ASSERT_EQUAL(INT64_C(123456789), cents("$1,234,567.89"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(123), cents("1.2345"));  // long fraction, rounded
    CPPUNIT_ASSERT_EQUAL(INT64_C(124), cents("1.2350"));
  }

  void readsRealUpstreamStrings() {
    // steam_priceoverview_*_real.json and the CNY tracker snapshot.
    CPPUNIT_ASSERT_EQUAL(INT64_C(466), cents("¥ 4.66"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(476), cents("¥ 4.76 or more"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(598900), cents("5,989"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(203), cents("$2.03 USD"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(476), cents("4,76 pуб."));
  }

  void refusesWhatIsNotOnePrice() {
    for (const char* bad : {"", "free", "-$1.00", "$ -1", "4.66 or 5.00", "1,23,4", "1..5",
                            "12,34.5,6", "1.2.3", "1e5", "$1,2345.6"}) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(bad, INT64_C(-1), cents(bad));
    }
    CPPUNIT_ASSERT_EQUAL(INT64_C(-1), cents(std::string(400, '9')));  // absurd, not overflow
  }

  void roundsMajorUnitsHalfAwayFromZeroAsWritten() {
    CPPUNIT_ASSERT_EQUAL(INT64_C(101), *ingest::majorToCents(1.005));
    CPPUNIT_ASSERT_EQUAL(INT64_C(100), *ingest::majorToCents(1.004999));
    CPPUNIT_ASSERT_EQUAL(INT64_C(1235), *ingest::majorToCents(12.345));
    CPPUNIT_ASSERT_EQUAL(INT64_C(3), *ingest::majorToCents(0.03));
    CPPUNIT_ASSERT_EQUAL(INT64_C(204379), *ingest::majorToCents(2043.79));
    CPPUNIT_ASSERT_EQUAL(INT64_C(0), *ingest::majorToCents(0.004));
    CPPUNIT_ASSERT(!ingest::majorToCents(-1.0));
    CPPUNIT_ASSERT(!ingest::majorToCents(1.0 / 0.0));
    CPPUNIT_ASSERT(!ingest::majorToCents(1e300));
  }

  void quotedPricesMustBePositive() {
    sdk::QuotedPrice price;
    price.form = sdk::QuotedPrice::Form::kCents;
    price.cents = 0;
    CPPUNIT_ASSERT(!ingest::toCents(price));
    price.cents = -5;
    CPPUNIT_ASSERT(!ingest::toCents(price));
    price.cents = 1999;
    CPPUNIT_ASSERT_EQUAL(INT64_C(1999), *ingest::toCents(price));
    price.form = sdk::QuotedPrice::Form::kMajor;
    price.major = 0.004;  // rounds to nothing
    CPPUNIT_ASSERT(!ingest::toCents(price));
    price.form = sdk::QuotedPrice::Form::kText;
    price.text = "$19.99";
    CPPUNIT_ASSERT_EQUAL(INT64_C(1999), *ingest::toCents(price));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PriceParserTest);
