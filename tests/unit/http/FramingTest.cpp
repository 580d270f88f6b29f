#include "http/Framing.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <limits>
#include <string>

using namespace skinpulse::http;

class FramingTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FramingTest);
  CPPUNIT_TEST(noBodyWithoutFramingHeaders);
  CPPUNIT_TEST(contentLength);
  CPPUNIT_TEST(chunkedOnly);
  CPPUNIT_TEST(refusesOtherCodings);
  CPPUNIT_TEST(refusesTransferEncodingWithContentLength);
  CPPUNIT_TEST(refusesMalformedContentLength);
  CPPUNIT_TEST(repeatedContentLength);
  CPPUNIT_TEST(hugeContentLengthSaturates);
  CPPUNIT_TEST(expectContinue);
  CPPUNIT_TEST_SUITE_END();

  static Framing of(const std::string& fields, bool http10 = false) {
    return readFraming("POST / HTTP/1.1\r\n" + fields + "\r\n", http10);
  }

 public:
  void noBodyWithoutFramingHeaders() {
    const auto framing = of("Host: a\r\n");
    CPPUNIT_ASSERT(framing.valid);
    CPPUNIT_ASSERT(!framing.chunked);
    CPPUNIT_ASSERT(!framing.has_content_length);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(0), framing.content_length);
  }

  void contentLength() {
    const auto framing = of("content-length:  42 \r\n");
    CPPUNIT_ASSERT(framing.valid);
    CPPUNIT_ASSERT(framing.has_content_length);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(42), framing.content_length);
  }

  void chunkedOnly() {
    CPPUNIT_ASSERT(of("Transfer-Encoding: chunked\r\n").chunked);
    CPPUNIT_ASSERT(of("Transfer-Encoding: CHUNKED\r\n").valid);
    CPPUNIT_ASSERT(of("Transfer-Encoding: chunked\r\n").valid);
    // HTTP/1.0 has no transfer codings (RFC 9112 §6.1).
    CPPUNIT_ASSERT(!of("Transfer-Encoding: chunked\r\n", true).valid);
  }

  void refusesOtherCodings() {
    for (const char* fields :
         {"Transfer-Encoding: gzip, chunked\r\n", "Transfer-Encoding: chunked, gzip\r\n",
          "Transfer-Encoding: gzip\r\n",
          "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n",
          "Transfer-Encoding: chunked, chunked\r\n", "Transfer-Encoding: \r\n",
          "Transfer-Encoding: identity\r\n", "Transfer-Encoding: xchunked\r\n"}) {
      CPPUNIT_ASSERT_MESSAGE(fields, !of(fields).valid);
    }
  }

  void refusesTransferEncodingWithContentLength() {
    CPPUNIT_ASSERT(!of("Transfer-Encoding: chunked\r\nContent-Length: 3\r\n").valid);
    CPPUNIT_ASSERT(!of("Content-Length: 3\r\nTransfer-Encoding: chunked\r\n").valid);
  }

  void refusesMalformedContentLength() {
    for (const char* value : {"+5", "-1", "5, 6", "5,5", "0x10", "", "1 2", "5.0", " "}) {
      CPPUNIT_ASSERT_MESSAGE(value, !of(std::string("Content-Length: ") + value + "\r\n").valid);
    }
  }

  void repeatedContentLength() {
    CPPUNIT_ASSERT(!of("Content-Length: 5\r\nContent-Length: 6\r\n").valid);
    const auto same = of("Content-Length: 5\r\nContent-Length: 5\r\n");
    CPPUNIT_ASSERT(same.valid);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(5), same.content_length);
  }

  void hugeContentLengthSaturates() {
    const auto framing = of("Content-Length: 99999999999999999999999999\r\n");
    CPPUNIT_ASSERT(framing.valid);
    CPPUNIT_ASSERT_EQUAL(std::numeric_limits<std::uint64_t>::max(), framing.content_length);
  }

  void expectContinue() {
    CPPUNIT_ASSERT(of("Expect: 100-continue\r\nContent-Length: 1\r\n").expect_continue);
    CPPUNIT_ASSERT(!of("Content-Length: 1\r\n").expect_continue);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FramingTest);
