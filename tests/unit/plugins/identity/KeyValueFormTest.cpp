#include "IdentityTestSupport.hpp"
#include "KeyValueForm.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::plugins::openid2::assertsValid;

class KeyValueFormTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(KeyValueFormTest);
  CPPUNIT_TEST(fixturesAnswerAsDocumented);
  CPPUNIT_TEST(onlyExactTrueUnderTheRightNamespace);
  CPPUNIT_TEST_SUITE_END();

 public:
  void fixturesAnswerAsDocumented() {
    CPPUNIT_ASSERT(
        assertsValid(identity_test::fixture("steam_openid_check_authentication_valid.txt")));
    CPPUNIT_ASSERT(
        !assertsValid(identity_test::fixture("steam_openid_check_authentication_invalid.txt")));
  }

  void onlyExactTrueUnderTheRightNamespace() {
    const std::string ns = "ns:http://specs.openid.net/auth/2.0\n";
    CPPUNIT_ASSERT(assertsValid(ns + "is_valid:true\n"));
    CPPUNIT_ASSERT(assertsValid("is_valid:true\n" + ns));
    CPPUNIT_ASSERT(assertsValid(ns + "is_valid:true"));
    CPPUNIT_ASSERT(assertsValid("ns:http://specs.openid.net/auth/2.0\r\nis_valid:true\r\n"));
    CPPUNIT_ASSERT(!assertsValid(ns + "is_valid:true:extra\n"));
    CPPUNIT_ASSERT(!assertsValid(ns + "is_valid:TRUE\n"));
    CPPUNIT_ASSERT(!assertsValid(ns + "is_valid: true\n"));
    CPPUNIT_ASSERT(!assertsValid(ns + "is_valid:true \n"));
    CPPUNIT_ASSERT(!assertsValid(ns + "is_valid:false\nis_valid:true\n"));
    CPPUNIT_ASSERT(!assertsValid(ns + "is_valid:true\nis_valid:true\n"));
    CPPUNIT_ASSERT(!assertsValid(ns));
    CPPUNIT_ASSERT(!assertsValid("is_valid:true\n"));
    CPPUNIT_ASSERT(!assertsValid("ns:http://openid.net/signon/1.1\nis_valid:true\n"));
    CPPUNIT_ASSERT(!assertsValid(ns + "garbage line\nis_valid:true\n"));
    CPPUNIT_ASSERT(!assertsValid(""));
    CPPUNIT_ASSERT(!assertsValid("<html>is_valid:true</html>"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(KeyValueFormTest);
