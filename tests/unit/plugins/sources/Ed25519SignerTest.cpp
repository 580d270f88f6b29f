#include "Ed25519Signer.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>
#include <string>

using skinpulse::plugins::dmarket::Ed25519Signer;
using skinpulse::plugins::dmarket::verifyEd25519;

namespace {
// RFC 8032 §7.1, TEST 1: the empty message.
const std::string kSeed = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const std::string kPublic = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
const std::string kSignature =
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065"
    "224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";
}  // namespace

class Ed25519SignerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(Ed25519SignerTest);
  CPPUNIT_TEST(rfc8032Vector1FromTheSeed);
  CPPUNIT_TEST(rfc8032Vector1FromDmarketsSixtyFourByteSecret);
  CPPUNIT_TEST(signaturesVerifyWithOpenSsl);
  CPPUNIT_TEST(refusesMalformedSecretsWithoutQuotingThem);
  CPPUNIT_TEST_SUITE_END();

 public:
  void rfc8032Vector1FromTheSeed() {
    const Ed25519Signer signer(kSeed);
    CPPUNIT_ASSERT_EQUAL(kPublic, signer.publicKeyHex());
    CPPUNIT_ASSERT_EQUAL(kSignature, signer.signHex(""));
  }

  void rfc8032Vector1FromDmarketsSixtyFourByteSecret() {
    // DMarket hands out seed || public key; upper-case hex is accepted too.
    std::string upper = kSeed + kPublic;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const Ed25519Signer signer(upper);
    CPPUNIT_ASSERT_EQUAL(kPublic, signer.publicKeyHex());
    CPPUNIT_ASSERT_EQUAL(kSignature, signer.signHex(""));
  }

  void signaturesVerifyWithOpenSsl() {
    const Ed25519Signer signer(kSeed + kPublic);
    const std::string message =
        "GET/trade-aggregator/v1/last-sales?gameId=a8db&title=AK-47%20%7C%20Redline%20%28Field-"
        "Tested%29&limit=201795342500";
    const std::string signature = signer.signHex(message);
    CPPUNIT_ASSERT_EQUAL(std::size_t{128}, signature.size());
    CPPUNIT_ASSERT(verifyEd25519(kPublic, message, signature));
    CPPUNIT_ASSERT(!verifyEd25519(kPublic, message + "x", signature));
    std::string flipped = signature;
    flipped[0] = flipped[0] == '0' ? '1' : '0';
    CPPUNIT_ASSERT(!verifyEd25519(kPublic, message, flipped));
    CPPUNIT_ASSERT(!verifyEd25519(kPublic, message, "zz"));
    // Ed25519 is deterministic: the same message, the same signature.
    CPPUNIT_ASSERT_EQUAL(signature, signer.signHex(message));
  }

  void refusesMalformedSecretsWithoutQuotingThem() {
    const std::string secret_like = "00112233445566778899aabbccddeeff";
    for (const std::string& bad :
         {std::string(""), secret_like, kSeed + "0", std::string(64, 'g'),
          kSeed + std::string(64, '0') /* a public half that is not the seed's */}) {
      try {
        const Ed25519Signer signer(bad);
        CPPUNIT_FAIL("accepted a malformed secret");
      } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        CPPUNIT_ASSERT(what.find("secret_key") != std::string::npos);
        CPPUNIT_ASSERT(bad.size() < 16 || what.find(bad.substr(0, 16)) == std::string::npos);
      }
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(Ed25519SignerTest);
