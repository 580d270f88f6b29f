#include "Encoding.hpp"
#include "UrlParts.hpp"

#include <cppunit/extensions/HelperMacros.h>

namespace id = skinpulse::plugins::identity;
using skinpulse::sdk::Fields;

class EncodingTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(EncodingTest);
  CPPUNIT_TEST(formEncodingEscapesEverythingButUnreserved);
  CPPUNIT_TEST(queryParsingDecodesPlusAndEscapes);
  CPPUNIT_TEST(malformedEscapesAreRefused);
  CPPUNIT_TEST(singleFieldRefusesRepeats);
  CPPUNIT_TEST(appendQueryKeepsAnExistingQuery);
  CPPUNIT_TEST(realmContainment);
  CPPUNIT_TEST(httpUrlShape);
  CPPUNIT_TEST_SUITE_END();

 public:
  void formEncodingEscapesEverythingButUnreserved() {
    CPPUNIT_ASSERT_EQUAL(std::string("a=b%20c&x%26y=%3D%2B%2F%3F%25~-._"),
                         id::formEncode({{"a", "b c"}, {"x&y", "=+/?%~-._"}}));
    CPPUNIT_ASSERT_EQUAL(std::string("n=%C3%A9"), id::formEncode({{"n", "\xC3\xA9"}}));
  }

  void queryParsingDecodesPlusAndEscapes() {
    const auto fields = id::parseQuery("a=1+2&&b=%3D%26&c&openid.x=http%3A%2F%2Fh");
    CPPUNIT_ASSERT(fields.has_value());
    const Fields expected = {{"a", "1 2"}, {"b", "=&"}, {"c", ""}, {"openid.x", "http://h"}};
    CPPUNIT_ASSERT(expected == *fields);
  }

  void malformedEscapesAreRefused() {
    CPPUNIT_ASSERT(!id::parseQuery("a=%").has_value());
    CPPUNIT_ASSERT(!id::parseQuery("a=%4").has_value());
    CPPUNIT_ASSERT(!id::parseQuery("a=%zz").has_value());
    CPPUNIT_ASSERT(!id::parseQuery("%g1=x").has_value());
  }

  void singleFieldRefusesRepeats() {
    const Fields fields = {{"state", "a"}, {"code", "c"}, {"state", "b"}};
    CPPUNIT_ASSERT(!id::singleField(fields, "state").has_value());
    CPPUNIT_ASSERT_EQUAL(std::string("c"), id::singleField(fields, "code").value());
    CPPUNIT_ASSERT(!id::singleField(fields, "error").has_value());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, id::countField(fields, "state"));
  }

  void appendQueryKeepsAnExistingQuery() {
    CPPUNIT_ASSERT_EQUAL(std::string("https://a/b?x=1"), id::appendQuery("https://a/b", "x=1"));
    CPPUNIT_ASSERT_EQUAL(std::string("https://a/b?t=0&x=1"),
                         id::appendQuery("https://a/b?t=0", "x=1"));
  }

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

CPPUNIT_TEST_SUITE_REGISTRATION(EncodingTest);
