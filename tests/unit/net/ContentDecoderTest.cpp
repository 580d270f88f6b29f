#include "net/ContentDecoder.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::net::appendWithin;
using skinpulse::net::isIdentityEncoding;
using skinpulse::net::makeContentDecoder;
using Result = skinpulse::net::ContentDecoder::Result;

class ContentDecoderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ContentDecoderTest);
  CPPUNIT_TEST(testKnownCodings);
  CPPUNIT_TEST(testUnknownCodingsRefused);
  CPPUNIT_TEST(testIdentityPassesThroughUnderLimit);
  CPPUNIT_TEST(testAppendWithin);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testKnownCodings() {
    for (const char* coding : {"", "identity", "gzip", "x-gzip", "GZIP", " br ", "deflate"}) {
      CPPUNIT_ASSERT_MESSAGE(coding, makeContentDecoder(coding) != nullptr);
    }
    CPPUNIT_ASSERT(isIdentityEncoding(""));
    CPPUNIT_ASSERT(isIdentityEncoding(" Identity"));
    CPPUNIT_ASSERT(!isIdentityEncoding("br"));
  }

  void testUnknownCodingsRefused() {
    for (const char* coding : {"compress", "zstd", "gzip, br", "bro"}) {
      CPPUNIT_ASSERT_MESSAGE(coding, makeContentDecoder(coding) == nullptr);
    }
  }

  void testIdentityPassesThroughUnderLimit() {
    auto decoder = makeContentDecoder("identity");
    std::string out;
    CPPUNIT_ASSERT(decoder->decode("abc", out, 5) == Result::kOk);
    CPPUNIT_ASSERT(decoder->decode("de", out, 5) == Result::kOk);
    CPPUNIT_ASSERT(decoder->decode("f", out, 5) == Result::kTooLarge);
    CPPUNIT_ASSERT_EQUAL(std::string("abcde"), out);
    CPPUNIT_ASSERT(decoder->finish() == Result::kOk);
  }

  void testAppendWithin() {
    std::string out = "xy";
    CPPUNIT_ASSERT(appendWithin("z", out, 3) == Result::kOk);
    CPPUNIT_ASSERT(appendWithin("", out, 3) == Result::kOk);
    CPPUNIT_ASSERT(appendWithin("w", out, 3) == Result::kTooLarge);
    CPPUNIT_ASSERT(appendWithin("too long", out, 0) == Result::kTooLarge);
    CPPUNIT_ASSERT_EQUAL(std::string("xyz"), out);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ContentDecoderTest);
