#include "auth/PlatformId.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::auth::isIndividualPlatformId;

class PlatformIdTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PlatformIdTest);
  CPPUNIT_TEST(testIndividualRange);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testIndividualRange() {
    CPPUNIT_ASSERT(isIndividualPlatformId("76561197960265729"));
    CPPUNIT_ASSERT(isIndividualPlatformId("76561198000000000"));
    CPPUNIT_ASSERT(isIndividualPlatformId("76561202255233023"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("76561197960265728"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("76561202255233024"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("7656119800000000"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("765611980000000000"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("7656119800000000a"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("+7656119800000000"));
    CPPUNIT_ASSERT(!isIndividualPlatformId(""));
    CPPUNIT_ASSERT(!isIndividualPlatformId("103582791429521412"));  // a group id
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PlatformIdTest);
