// The platform-id check the import runs before any call to the platform (docs/api.md §6),
// auth::isIndividualPlatformId, on the inputs a forged or stale link could carry.

#include "auth/PlatformId.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::auth::isIndividualPlatformId;

class ImportPlatformIdTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ImportPlatformIdTest);
  CPPUNIT_TEST(acceptsTheIndividualAccountRangeInclusive);
  CPPUNIT_TEST(refusesJustOutsideTheRange);
  CPPUNIT_TEST(refusesAnythingButSeventeenDigits);
  CPPUNIT_TEST_SUITE_END();

 public:
  void acceptsTheIndividualAccountRangeInclusive() {
    CPPUNIT_ASSERT(isIndividualPlatformId("76561197960265729"));  // first
    CPPUNIT_ASSERT(isIndividualPlatformId("76561202255233023"));  // last
    CPPUNIT_ASSERT(isIndividualPlatformId("76561197960287930"));  // a real public profile
  }

  void refusesJustOutsideTheRange() {
    CPPUNIT_ASSERT(!isIndividualPlatformId("76561197960265728"));  // account number 0
    CPPUNIT_ASSERT(!isIndividualPlatformId("76561202255233024"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("10000000000000000"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("99999999999999999"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("00000000000000000"));
  }

  void refusesAnythingButSeventeenDigits() {
    CPPUNIT_ASSERT(!isIndividualPlatformId(""));
    CPPUNIT_ASSERT(!isIndividualPlatformId("7656119796026573"));    // 16 digits
    CPPUNIT_ASSERT(!isIndividualPlatformId("765611979602657290"));  // 18 digits
    CPPUNIT_ASSERT(!isIndividualPlatformId("+6561197960265729"));
    CPPUNIT_ASSERT(!isIndividualPlatformId(" 7656119796026573"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("7656119796026573 "));
    CPPUNIT_ASSERT(!isIndividualPlatformId("76561197960265729/"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("7656119796026572x"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("７6561197960265729"));  // a full-width digit
    CPPUNIT_ASSERT(!isIndividualPlatformId(std::string_view("76561197960265\0729", 17)));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ImportPlatformIdTest);
