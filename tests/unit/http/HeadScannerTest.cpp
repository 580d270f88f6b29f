#include "http/HeadScanner.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using namespace skinpulse::http;

class HeadScannerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HeadScannerTest);
  CPPUNIT_TEST(findsTheEndOfTheHead);
  CPPUNIT_TEST(waitsForMore);
  CPPUNIT_TEST(refusesBareLineEnds);
  CPPUNIT_TEST(refusesObsFold);
  CPPUNIT_TEST(refusesControlBytes);
  CPPUNIT_TEST(requestLineLimitIs414EvenBeforeItsEnd);
  CPPUNIT_TEST(headerSectionLimitIs431);
  CPPUNIT_TEST_SUITE_END();

  static HeadScan scan(const std::string& bytes, HeadLimits limits = {}) {
    return scanHead(bytes, limits);
  }

 public:
  void findsTheEndOfTheHead() {
    const std::string head = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    const auto result = scan(head + "body");
    CPPUNIT_ASSERT(result.state == HeadScan::State::kComplete);
    CPPUNIT_ASSERT_EQUAL(head.size(), result.head_bytes);
    const auto bare = scan("GET / HTTP/1.1\r\n\r\n");
    CPPUNIT_ASSERT(bare.state == HeadScan::State::kComplete);
    CPPUNIT_ASSERT_EQUAL(std::size_t(18), bare.head_bytes);
  }

  void waitsForMore() {
    for (const char* part : {"", "GE", "GET / HTTP/1.1", "GET / HTTP/1.1\r", "GET / HTTP/1.1\r\n",
                             "GET / HTTP/1.1\r\nHost: a\r\n", "GET / HTTP/1.1\r\nHost: a\r\n\r"}) {
      CPPUNIT_ASSERT_MESSAGE(part, scan(part).state == HeadScan::State::kIncomplete);
    }
  }

  void refusesBareLineEnds() {
    for (const char* bytes : {"GET / HTTP/1.1\nHost: a\r\n\r\n", "GET / HTTP/1.1\r\nHost: a\n\r\n",
                              "GET / HTTP/1.1\r\nHost: a\r\n\n", "GET / HTTP/1.1\rX\r\n\r\n",
                              "GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n"}) {
      const auto result = scan(bytes);
      CPPUNIT_ASSERT_MESSAGE(bytes, result.state == HeadScan::State::kRefused);
      CPPUNIT_ASSERT_EQUAL(400, result.status);
      CPPUNIT_ASSERT_EQUAL(std::string("invalid_request"), std::string(result.code));
    }
  }

  void refusesObsFold() {
    for (const char* bytes :
         {"GET / HTTP/1.1\r\nX-A: a\r\n b\r\n\r\n", "GET / HTTP/1.1\r\nX-A: a\r\n\tb\r\n\r\n",
          "GET / HTTP/1.1\r\n x\r\n"}) {
      const auto result = scan(bytes);
      CPPUNIT_ASSERT_MESSAGE(bytes, result.state == HeadScan::State::kRefused);
      CPPUNIT_ASSERT_EQUAL(400, result.status);
    }
  }

  void refusesControlBytes() {
    CPPUNIT_ASSERT_EQUAL(400, scan(std::string("GET /\0 HTTP/1.1\r\n\r\n", 20)).status);
    CPPUNIT_ASSERT_EQUAL(400, scan("GET / HTTP/1.1\r\nX: a\x1b[2J\r\n\r\n").status);
    CPPUNIT_ASSERT_EQUAL(400, scan("GET / HTTP/1.1\r\nX: a\x7f\r\n\r\n").status);
    // HTAB is allowed in field values.
    CPPUNIT_ASSERT(scan("GET / HTTP/1.1\r\nX: a\tb\r\n\r\n").state == HeadScan::State::kComplete);
  }

  void requestLineLimitIs414EvenBeforeItsEnd() {
    HeadLimits limits;
    limits.max_line_bytes = 32;
    const std::string exact = "GET /" + std::string(18, 'a') + " HTTP/1.1";  // 32 bytes
    CPPUNIT_ASSERT_EQUAL(std::size_t(32), exact.size());
    CPPUNIT_ASSERT(scan(exact + "\r\n\r\n", limits).state == HeadScan::State::kComplete);
    const auto longer = scan("GET /" + std::string(19, 'a') + " HTTP/1.1\r\n\r\n", limits);
    CPPUNIT_ASSERT_EQUAL(414, longer.status);
    // No line end yet, but already too long: refused without waiting for the rest.
    CPPUNIT_ASSERT_EQUAL(414, scan("GET /" + std::string(40, 'a'), limits).status);
  }

  void headerSectionLimitIs431() {
    HeadLimits limits;
    limits.max_header_bytes = 64;
    const std::string line = "GET / HTTP/1.1\r\n";
    // 62 bytes of field line + the final CRLF: exactly the limit.
    const std::string field = "X: " + std::string(57, 'a') + "\r\n";
    CPPUNIT_ASSERT_EQUAL(std::size_t(62), field.size());
    CPPUNIT_ASSERT(scan(line + field + "\r\n", limits).state == HeadScan::State::kComplete);
    CPPUNIT_ASSERT_EQUAL(431,
                         scan(line + "X: " + std::string(58, 'a') + "\r\n\r\n", limits).status);
    CPPUNIT_ASSERT_EQUAL(431, scan(line + "X: " + std::string(100, 'a'), limits).status);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(HeadScannerTest);
