#include "auth/SessionCookie.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <set>

using skinpulse::auth::SessionCookie;

class SessionCookieTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SessionCookieTest);
  CPPUNIT_TEST(testSignedValueVerifies);
  CPPUNIT_TEST(testIdsAre256RandomBits);
  CPPUNIT_TEST(testTamperedValuesAreRefused);
  CPPUNIT_TEST(testAnotherSecretIsRefused);
  CPPUNIT_TEST(testStorageKeyIsAHashNotTheId);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testSignedValueVerifies() {
    const SessionCookie cookie(kSecret);
    const std::string id = SessionCookie::newId();
    const std::string value = cookie.sign(id);
    CPPUNIT_ASSERT_EQUAL(id, cookie.verify(value).value());
    CPPUNIT_ASSERT(value.rfind(id + ".", 0) == 0);
  }

  void testIdsAre256RandomBits() {
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) {
      const std::string id = SessionCookie::newId();
      CPPUNIT_ASSERT_EQUAL(std::size_t{43}, id.size());  // 32 bytes, base64url
      CPPUNIT_ASSERT(seen.insert(id).second);
    }
  }

  void testTamperedValuesAreRefused() {
    const SessionCookie cookie(kSecret);
    const std::string id = SessionCookie::newId();
    const std::string value = cookie.sign(id);
    const auto dot = value.find('.');
    // A flipped character in the id, in the tag; a truncated tag; an id alone; garbage.
    std::string badId = value;
    badId[0] = badId[0] == 'A' ? 'B' : 'A';
    std::string badTag = value;
    badTag.back() = badTag.back() == 'A' ? 'B' : 'A';
    CPPUNIT_ASSERT(!cookie.verify(badId));
    CPPUNIT_ASSERT(!cookie.verify(badTag));
    CPPUNIT_ASSERT(!cookie.verify(value.substr(0, value.size() - 1)));
    CPPUNIT_ASSERT(!cookie.verify(id));
    CPPUNIT_ASSERT(!cookie.verify(id + "."));
    CPPUNIT_ASSERT(!cookie.verify(""));
    CPPUNIT_ASSERT(!cookie.verify("." + value.substr(dot + 1)));
    CPPUNIT_ASSERT(!cookie.verify(value + "x"));
    // Another valid-looking id under a copied tag.
    const std::string other = SessionCookie::newId();
    CPPUNIT_ASSERT(!cookie.verify(other + value.substr(dot)));
  }

  void testAnotherSecretIsRefused() {
    const SessionCookie ours(kSecret);
    const SessionCookie theirs("another-secret-of-at-least-32-bytes!!");
    const std::string id = SessionCookie::newId();
    CPPUNIT_ASSERT(!ours.verify(theirs.sign(id)));
    CPPUNIT_ASSERT(ours.sign(id) != theirs.sign(id));
  }

  void testStorageKeyIsAHashNotTheId() {
    const std::string id = SessionCookie::newId();
    const std::string key = SessionCookie::storageKey(id);
    CPPUNIT_ASSERT_EQUAL(std::string("session:").size() + 64, key.size());
    CPPUNIT_ASSERT(key.find(id) == std::string::npos);
    CPPUNIT_ASSERT_EQUAL(key, SessionCookie::storageKey(id));
    CPPUNIT_ASSERT(key != SessionCookie::storageKey(SessionCookie::newId()));
  }

 private:
  static constexpr const char* kSecret = "unit-test-secret-0123456789abcdef0123";
};

CPPUNIT_TEST_SUITE_REGISTRATION(SessionCookieTest);
