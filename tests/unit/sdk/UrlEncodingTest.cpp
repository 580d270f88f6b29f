#include "skinpulse/sdk/url_encoding.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::sdk::appendQuery;
using skinpulse::sdk::encodeQuery;
using skinpulse::sdk::Fields;
using skinpulse::sdk::parseQuery;
using skinpulse::sdk::percentDecode;
using skinpulse::sdk::percentEncode;

// Test classes live in the global namespace: CppUnit names a suite after its type.
class UrlEncodingTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(UrlEncodingTest);
  CPPUNIT_TEST(testUnreservedPassThrough);
  CPPUNIT_TEST(testReservedAndSpaceEncoded);
  CPPUNIT_TEST(testUtf8EncodedBytewise);
  CPPUNIT_TEST(testMarketHashName);
  CPPUNIT_TEST(testEncodeQuery);
  CPPUNIT_TEST(testFormEncodingEscapesEverythingButUnreserved);
  CPPUNIT_TEST(testPercentDecodePlusPerCaller);
  CPPUNIT_TEST(testPercentDecodeRefusesMalformedEscapes);
  CPPUNIT_TEST(testQueryParsingDecodesPlusAndEscapes);
  CPPUNIT_TEST(testQueryStringsDecode);
  CPPUNIT_TEST(testMalformedEscapesAreRefused);
  CPPUNIT_TEST(testAppendQueryKeepsAnExistingQuery);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testUnreservedPassThrough() {
    CPPUNIT_ASSERT_EQUAL(std::string("AZaz09-._~"), percentEncode("AZaz09-._~"));
    CPPUNIT_ASSERT_EQUAL(std::string(), percentEncode(""));
  }

  void testReservedAndSpaceEncoded() {
    CPPUNIT_ASSERT_EQUAL(std::string("a%20b"), percentEncode("a b"));
    CPPUNIT_ASSERT_EQUAL(std::string("%26%23%2B%3D%3F%2F%25%7C%28%29"),
                         percentEncode("&#+=?/%|()"));
    CPPUNIT_ASSERT_EQUAL(std::string("%00%0A"), percentEncode(std::string("\0\n", 2)));
    CPPUNIT_ASSERT_EQUAL(std::string("%23%2B%2F%3F%3D%25-_.~"), percentEncode("#+/?=%-_.~"));
  }

  void testUtf8EncodedBytewise() {
    CPPUNIT_ASSERT_EQUAL(std::string("%E2%98%85"), percentEncode("\u2605"));  // ★
    CPPUNIT_ASSERT_EQUAL(std::string("%E2%84%A2"), percentEncode("\u2122"));  // ™
  }

  void testMarketHashName() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("%E2%98%85%20StatTrak%E2%84%A2%20Karambit%20%7C%20Fade%20%28Factory%20New%29"),
        percentEncode("\u2605 StatTrak\u2122 Karambit | Fade (Factory New)"));
    CPPUNIT_ASSERT_EQUAL(
        std::string(
            "%E2%98%85%20StatTrak%E2%84%A2%20Karambit%20%7C%20Doppler%20%28Factory%20New%29"),
        percentEncode("★ StatTrak™ Karambit | Doppler (Factory New)"));
    CPPUNIT_ASSERT_EQUAL(std::string("Sticker%20%7C%20Rock%20%26%20Roll%20%23"),
                         percentEncode("Sticker | Rock & Roll #"));
    CPPUNIT_ASSERT_EQUAL(std::string("Dreams%20%26%20Nightmares%20Case"),
                         percentEncode("Dreams & Nightmares Case"));
  }

  void testEncodeQuery() {
    const Fields fields{{"appid", "730"}, {"market_hash_name", "AK-47 | Redline"}, {"a&b", "c=d"}};
    CPPUNIT_ASSERT_EQUAL(
        std::string("appid=730&market_hash_name=AK-47%20%7C%20Redline&a%26b=c%3Dd"),
        encodeQuery(fields));
    CPPUNIT_ASSERT_EQUAL(std::string(), encodeQuery({}));
  }

  // The identity plugins send form bodies with the same encoding.
  void testFormEncodingEscapesEverythingButUnreserved() {
    CPPUNIT_ASSERT_EQUAL(std::string("a=b%20c&x%26y=%3D%2B%2F%3F%25~-._"),
                         encodeQuery({{"a", "b c"}, {"x&y", "=+/?%~-._"}}));
    CPPUNIT_ASSERT_EQUAL(std::string("n=%C3%A9"), encodeQuery({{"n", "\xC3\xA9"}}));
  }

  // A request path keeps '+'; queries and forms read it as a space.
  void testPercentDecodePlusPerCaller() {
    CPPUNIT_ASSERT_EQUAL(std::string("/a+b c/\xE2\x98\x85"),
                         percentDecode("/a+b%20c/%e2%98%85", false).value());
    CPPUNIT_ASSERT_EQUAL(std::string("a b c"), percentDecode("a+b%20c", true).value());
    CPPUNIT_ASSERT_EQUAL(std::string("+"), percentDecode("%2B", true).value());
    CPPUNIT_ASSERT_EQUAL(std::string(), percentDecode("", false).value());
  }

  void testPercentDecodeRefusesMalformedEscapes() {
    for (const bool plus : {false, true}) {
      CPPUNIT_ASSERT(!percentDecode("%", plus).has_value());
      CPPUNIT_ASSERT(!percentDecode("a%4", plus).has_value());
      CPPUNIT_ASSERT(!percentDecode("%4g", plus).has_value());
      CPPUNIT_ASSERT(!percentDecode("%%41", plus).has_value());
    }
    CPPUNIT_ASSERT_EQUAL(std::string("A"), percentDecode("%41", false).value());
  }

  void testQueryParsingDecodesPlusAndEscapes() {
    const auto fields = parseQuery("a=1+2&&b=%3D%26&c&openid.x=http%3A%2F%2Fh");
    CPPUNIT_ASSERT(fields.has_value());
    const Fields expected = {{"a", "1 2"}, {"b", "=&"}, {"c", ""}, {"openid.x", "http://h"}};
    CPPUNIT_ASSERT(expected == *fields);
    CPPUNIT_ASSERT(parseQuery("").value().empty());
  }

  void testQueryStringsDecode() {
    const auto params = parseQuery("q=%E2%98%85+Karambit&limit=5&flag&=x");
    CPPUNIT_ASSERT(params);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), params->size());
    CPPUNIT_ASSERT_EQUAL(std::string("★ Karambit"), (*params)[0].second);
    CPPUNIT_ASSERT_EQUAL(std::string("flag"), (*params)[2].first);
    CPPUNIT_ASSERT_EQUAL(std::string(""), (*params)[2].second);
    CPPUNIT_ASSERT_EQUAL(std::string(""), (*params)[3].first);
    CPPUNIT_ASSERT_EQUAL(std::string("x"), (*params)[3].second);
    // Escapes decode to bytes; whether they are UTF-8 is the parameter's check.
    CPPUNIT_ASSERT_EQUAL(std::string("\xE2\x98"), (*parseQuery("q=%E2%98"))[0].second);
    CPPUNIT_ASSERT(!parseQuery("q=%zz"));
    CPPUNIT_ASSERT(!parseQuery("q=%4"));
  }

  void testMalformedEscapesAreRefused() {
    CPPUNIT_ASSERT(!parseQuery("a=%").has_value());
    CPPUNIT_ASSERT(!parseQuery("a=%4").has_value());
    CPPUNIT_ASSERT(!parseQuery("a=%zz").has_value());
    CPPUNIT_ASSERT(!parseQuery("%g1=x").has_value());
  }

  void testAppendQueryKeepsAnExistingQuery() {
    CPPUNIT_ASSERT_EQUAL(std::string("https://a/b?x=1"), appendQuery("https://a/b", "x=1"));
    CPPUNIT_ASSERT_EQUAL(std::string("https://a/b?t=0&x=1"), appendQuery("https://a/b?t=0", "x=1"));
    CPPUNIT_ASSERT_EQUAL(std::string("https://a/b"), appendQuery("https://a/b", ""));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(UrlEncodingTest);
