#include "access/ApiKey.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <set>

using namespace skinpulse::access;

class ApiKeyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ApiKeyTest);
  CPPUNIT_TEST(testGeneratedKeysHaveTheFormAndDiffer);
  CPPUNIT_TEST(testHashIsSha256Hex);
  CPPUNIT_TEST(testBearerHeaderParsing);
  CPPUNIT_TEST(testMalformedHeaders);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testGeneratedKeysHaveTheFormAndDiffer() {
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) {
      const NewApiKey key = generateApiKey();
      CPPUNIT_ASSERT_EQUAL(kApiKeyChars, key.key.size());
      CPPUNIT_ASSERT(isWellFormedApiKey(key.key));
      CPPUNIT_ASSERT_EQUAL(key.key.substr(0, kApiKeyPrefixChars), key.prefix);
      CPPUNIT_ASSERT_EQUAL(hashApiKey(key.key), key.hash);
      CPPUNIT_ASSERT(key.hash.find(key.key.substr(4)) == std::string::npos);
      CPPUNIT_ASSERT(seen.insert(key.key).second);
    }
  }

  void testHashIsSha256Hex() {
    // SHA-256("abc"), FIPS 180-2 appendix B.1.
    CPPUNIT_ASSERT_EQUAL(
        std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        hashApiKey("abc"));
  }

  void testBearerHeaderParsing() {
    const std::string key = generateApiKey().key;
    CPPUNIT_ASSERT(parseAuthorization(std::nullopt).kind == Credential::Kind::kNone);
    for (const std::string& header :
         {"Bearer " + key, "bearer " + key, "BEARER   " + key, "Bearer " + key + "  "}) {
      const Credential parsed = parseAuthorization(header);
      CPPUNIT_ASSERT_MESSAGE(header, parsed.kind == Credential::Kind::kKey);
      CPPUNIT_ASSERT_EQUAL(key, parsed.key);
    }
  }

  void testMalformedHeaders() {
    const std::string key = generateApiKey().key;
    for (const std::string& header :
         {std::string(), std::string("Bearer"), std::string("Bearer "), "Basic " + key,
          "Bearer" + key, "Bearer\t" + key, "Bearer " + key.substr(0, kApiKeyChars - 1),
          "Bearer " + key + "x", "Bearer " + key + " x", "Bearer spk-" + key.substr(4),
          "Bearer " + key.substr(0, 10) + "+" + key.substr(11), "Token " + key}) {
      CPPUNIT_ASSERT_MESSAGE(header,
                             parseAuthorization(header).kind == Credential::Kind::kMalformed);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ApiKeyTest);
