#include "UrlParts.hpp"

#include <cppunit/extensions/HelperMacros.h>

namespace id = skinpulse::plugins::identity;

class UrlPartsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(UrlPartsTest);
  CPPUNIT_TEST(realmContainment);
  CPPUNIT_TEST(httpUrlShape);
  CPPUNIT_TEST_SUITE_END();

 public:
  void realmContainment() {
    CPPUNIT_ASSERT_EQUAL(std::string("https://a.example/"), id::realmOf("https://a.example"));
    CPPUNIT_ASSERT_EQUAL(std::string("https://a.example/"), id::realmOf("https://a.example//"));
    const std::string realm = "https://a.example/";
    CPPUNIT_ASSERT(id::isUnderRealm("https://a.example/api/cb?state=1", realm));
    CPPUNIT_ASSERT(id::isUnderRealm("https://a.example", realm));
    CPPUNIT_ASSERT(!id::isUnderRealm("https://a.example.evil/api/cb", realm));
    CPPUNIT_ASSERT(!id::isUnderRealm("https://a.example:8443/api/cb", realm));
    CPPUNIT_ASSERT(!id::isUnderRealm("http://a.example/api/cb", realm));
    CPPUNIT_ASSERT(!id::isUnderRealm("https://a.example@evil/api", realm));
    CPPUNIT_ASSERT(id::isUnderRealm("https://x.example/app/cb", "https://x.example/app/"));
    CPPUNIT_ASSERT(!id::isUnderRealm("https://x.example/application", "https://x.example/app/"));
  }

  void httpUrlShape() {
    CPPUNIT_ASSERT(id::isHttpUrl("https://h/p?q=1"));
    CPPUNIT_ASSERT(id::isHttpUrl("http://127.0.0.1:9/x"));
    CPPUNIT_ASSERT(!id::isHttpUrl("javascript:alert(1)"));
    CPPUNIT_ASSERT(!id::isHttpUrl("https:///p"));
    CPPUNIT_ASSERT(!id::isHttpUrl("https://"));
    CPPUNIT_ASSERT(!id::isHttpUrl("https://h/p#frag"));
    CPPUNIT_ASSERT(!id::isHttpUrl("https://h/p q"));
    CPPUNIT_ASSERT(!id::isHttpUrl("https://h/p\r\nX: y"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(UrlPartsTest);
