#include "alerts/DeliveryWorkers.hpp"
#include "alerts/Signature.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <regex>

using namespace skinpulse::alerts;

class SignatureTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SignatureTest);
  CPPUNIT_TEST(hmacMatchesRfc4231);
  CPPUNIT_TEST(headerSignsTimestampDotBody);
  CPPUNIT_TEST(secretsAreFreshAndLongEnough);
  CPPUNIT_TEST(backoffDoublesUpToSixHours);
  CPPUNIT_TEST_SUITE_END();

 public:
  void hmacMatchesRfc4231() {
    // RFC 4231 test case 2.
    CPPUNIT_ASSERT_EQUAL(
        std::string("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        hmacSha256Hex("Jefe", "what do ya want for nothing?"));
  }

  void headerSignsTimestampDotBody() {
    const std::string body = R"({"alert_id":1})";
    const auto header = signatureHeader("whsec_test", 1800000000, body);
    CPPUNIT_ASSERT_EQUAL("t=1800000000,v1=" + hmacSha256Hex("whsec_test", "1800000000." + body),
                         header);
    // The same figure as: printf '%s' '1800000000.{"alert_id":1}' |
    //   openssl dgst -sha256 -hmac whsec_test
    CPPUNIT_ASSERT_EQUAL(
        std::string(
            "t=1800000000,v1=69e322aa52df582aad71cded4ed32c4794173f8db32d7073006e22aa8fb4d32a"),
        header);
  }

  void secretsAreFreshAndLongEnough() {
    const auto a = newWebhookSecret();
    const auto b = newWebhookSecret();
    CPPUNIT_ASSERT(a != b);
    CPPUNIT_ASSERT(std::regex_match(a, std::regex("whsec_[0-9a-f]{64}")));
  }

  void backoffDoublesUpToSixHours() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{60}, backoffSeconds(60, 1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{120}, backoffSeconds(60, 2));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{60 * 256}, backoffSeconds(60, 9));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{6 * 3600}, backoffSeconds(60, 10));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{6 * 3600}, backoffSeconds(60, 1000));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, backoffSeconds(1, 1));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SignatureTest);
