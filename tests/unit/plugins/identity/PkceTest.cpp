#include "Crypto.hpp"
#include "Pkce.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::plugins::identity::base64UrlNoPadding;
using skinpulse::plugins::identity::constantTimeEquals;
using skinpulse::plugins::oauth2::isValidVerifier;
using skinpulse::plugins::oauth2::s256Challenge;

class PkceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PkceTest);
  CPPUNIT_TEST(matchesRfc7636AppendixB);
  CPPUNIT_TEST(challengeIsBase64UrlWithoutPadding);
  CPPUNIT_TEST(verifierShapeFollowsSection41);
  CPPUNIT_TEST(base64UrlHandlesEveryRemainder);
  CPPUNIT_TEST(constantTimeEqualsComparesWholeStrings);
  CPPUNIT_TEST_SUITE_END();

 public:
  void matchesRfc7636AppendixB() {
    CPPUNIT_ASSERT_EQUAL(std::string("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
                         s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"));
  }

  void challengeIsBase64UrlWithoutPadding() {
    const std::string challenge = s256Challenge(std::string(43, 'a'));
    CPPUNIT_ASSERT_EQUAL(std::size_t{43}, challenge.size());
    CPPUNIT_ASSERT(challenge.find_first_of("+/=") == std::string::npos);
  }

  void verifierShapeFollowsSection41() {
    CPPUNIT_ASSERT(isValidVerifier(std::string(43, 'a')));
    CPPUNIT_ASSERT(isValidVerifier(std::string(128, '~')));
    CPPUNIT_ASSERT(!isValidVerifier(std::string(42, 'a')));
    CPPUNIT_ASSERT(!isValidVerifier(std::string(129, 'a')));
    CPPUNIT_ASSERT(!isValidVerifier(std::string(42, 'a') + "+"));
    CPPUNIT_ASSERT(!isValidVerifier(std::string(42, 'a') + "="));
  }

  void base64UrlHandlesEveryRemainder() {
    // RFC 4648 §10 vectors, in the URL alphabet without padding.
    CPPUNIT_ASSERT_EQUAL(std::string(""), base64UrlNoPadding(""));
    CPPUNIT_ASSERT_EQUAL(std::string("Zg"), base64UrlNoPadding("f"));
    CPPUNIT_ASSERT_EQUAL(std::string("Zm8"), base64UrlNoPadding("fo"));
    CPPUNIT_ASSERT_EQUAL(std::string("Zm9v"), base64UrlNoPadding("foo"));
    CPPUNIT_ASSERT_EQUAL(std::string("Zm9vYmE"), base64UrlNoPadding("fooba"));
    CPPUNIT_ASSERT_EQUAL(std::string("-_8"), base64UrlNoPadding("\xfb\xff"));
  }

  void constantTimeEqualsComparesWholeStrings() {
    CPPUNIT_ASSERT(constantTimeEquals("abc", "abc"));
    CPPUNIT_ASSERT(!constantTimeEquals("abc", "abd"));
    CPPUNIT_ASSERT(!constantTimeEquals("abc", "abcd"));
    CPPUNIT_ASSERT(!constantTimeEquals("", "a"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PkceTest);
