#include "net/UrlEncoding.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::encodeQuery;
using skinpulse::percentEncode;
namespace sdk = skinpulse::sdk;

// Test classes live in the global namespace: CppUnit names a suite after its type.
class UrlEncodingTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(UrlEncodingTest);
  CPPUNIT_TEST(testUnreservedPassThrough);
  CPPUNIT_TEST(testReservedAndSpaceEncoded);
  CPPUNIT_TEST(testUtf8EncodedBytewise);
  CPPUNIT_TEST(testMarketHashName);
  CPPUNIT_TEST(testEncodeQuery);
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
  }

  void testUtf8EncodedBytewise() {
    CPPUNIT_ASSERT_EQUAL(std::string("%E2%98%85"), percentEncode("\u2605"));  // ★
    CPPUNIT_ASSERT_EQUAL(std::string("%E2%84%A2"), percentEncode("\u2122"));  // ™
  }

  void testMarketHashName() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("%E2%98%85%20StatTrak%E2%84%A2%20Karambit%20%7C%20Fade%20%28Factory%20New%29"),
        percentEncode("\u2605 StatTrak\u2122 Karambit | Fade (Factory New)"));
    CPPUNIT_ASSERT_EQUAL(std::string("Sticker%20%7C%20Rock%20%26%20Roll%20%23"),
                         percentEncode("Sticker | Rock & Roll #"));
  }

  void testEncodeQuery() {
    const sdk::Fields fields{
        {"appid", "730"}, {"market_hash_name", "AK-47 | Redline"}, {"a&b", "c=d"}};
    CPPUNIT_ASSERT_EQUAL(
        std::string("appid=730&market_hash_name=AK-47%20%7C%20Redline&a%26b=c%3Dd"),
        encodeQuery(fields));
    CPPUNIT_ASSERT_EQUAL(std::string(), encodeQuery({}));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(UrlEncodingTest);
