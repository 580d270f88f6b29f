#include "portfolio/PlatformId.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::portfolio::isValidPlatformId;

class PlatformIdTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PlatformIdTest);
  CPPUNIT_TEST(acceptsTheIndividualAccountRangeInclusive);
  CPPUNIT_TEST(refusesJustOutsideTheRange);
  CPPUNIT_TEST(refusesAnythingButSeventeenDigits);
  CPPUNIT_TEST_SUITE_END();

 public:
  void acceptsTheIndividualAccountRangeInclusive() {
    CPPUNIT_ASSERT(isValidPlatformId("76561197960265729"));  // first
    CPPUNIT_ASSERT(isValidPlatformId("76561202255233023"));  // last
    CPPUNIT_ASSERT(isValidPlatformId("76561197960287930"));  // a real public profile
  }

  void refusesJustOutsideTheRange() {
    CPPUNIT_ASSERT(!isValidPlatformId("76561197960265728"));  // account number 0
    CPPUNIT_ASSERT(!isValidPlatformId("76561202255233024"));
    CPPUNIT_ASSERT(!isValidPlatformId("10000000000000000"));
    CPPUNIT_ASSERT(!isValidPlatformId("99999999999999999"));
    CPPUNIT_ASSERT(!isValidPlatformId("00000000000000000"));
  }

  void refusesAnythingButSeventeenDigits() {
    CPPUNIT_ASSERT(!isValidPlatformId(""));
    CPPUNIT_ASSERT(!isValidPlatformId("7656119796026573"));    // 16 digits
    CPPUNIT_ASSERT(!isValidPlatformId("765611979602657290"));  // 18 digits
    CPPUNIT_ASSERT(!isValidPlatformId("+6561197960265729"));
    CPPUNIT_ASSERT(!isValidPlatformId(" 7656119796026573"));
    CPPUNIT_ASSERT(!isValidPlatformId("7656119796026573 "));
    CPPUNIT_ASSERT(!isValidPlatformId("76561197960265729/"));
    CPPUNIT_ASSERT(!isValidPlatformId("7656119796026572x"));
    CPPUNIT_ASSERT(!isValidPlatformId("７6561197960265729"));  // a full-width digit
    CPPUNIT_ASSERT(!isValidPlatformId(std::string_view("76561197960265\0729", 17)));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PlatformIdTest);
