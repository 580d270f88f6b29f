#include "portfolio/Money.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::portfolio;

class MoneyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MoneyTest);
  CPPUNIT_TEST(usdCentsUnchanged);
  CPPUNIT_TEST(majorUnitsWithTwoDecimals);
  CPPUNIT_TEST_SUITE_END();

 public:
  void usdCentsUnchanged() {
    const Money money;
    CPPUNIT_ASSERT_EQUAL(std::string("USD"), money.currency());
    CPPUNIT_ASSERT_EQUAL(2, money.exponent());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{-1234}, money.minor(-1234));
  }

  void majorUnitsWithTwoDecimals() {
    const Money money;
    CPPUNIT_ASSERT_EQUAL(std::string("1234.56"), money.major(123456));
    CPPUNIT_ASSERT_EQUAL(std::string("0.05"), money.major(5));
    CPPUNIT_ASSERT_EQUAL(std::string("-0.05"), money.major(-5));
    CPPUNIT_ASSERT_EQUAL(std::string("0.00"), money.major(0));
    CPPUNIT_ASSERT_EQUAL(std::string("-10.00"), money.major(-1000));
    CPPUNIT_ASSERT_EQUAL(std::string("92233720368547758.07"), money.major(INT64_MAX));
    CPPUNIT_ASSERT_EQUAL(std::string("-92233720368547758.08"), money.major(INT64_MIN));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MoneyTest);
