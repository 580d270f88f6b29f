#include "net/HttpUrl.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::net::parseHttpUrl;
using skinpulse::net::redactQueryIn;
using skinpulse::net::redactUrl;

class HttpUrlTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HttpUrlTest);
  CPPUNIT_TEST(testHttpsWithQuery);
  CPPUNIT_TEST(testExplicitPortAndNoPath);
  CPPUNIT_TEST(testIpv6Literal);
  CPPUNIT_TEST(testTargetKeptAsWritten);
  CPPUNIT_TEST(testNonAsciiEncoded);
  CPPUNIT_TEST(testRejected);
  CPPUNIT_TEST(testRedact);
  CPPUNIT_TEST(testRedactQueryIn);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testHttpsWithQuery() {
    const auto url = parseHttpUrl("HTTPS://api.skinport.com/v1/items?app_id=730&currency=EUR#x");
    CPPUNIT_ASSERT(url.has_value());
    CPPUNIT_ASSERT(url->secure);
    CPPUNIT_ASSERT_EQUAL(std::string("api.skinport.com"), url->host);
    CPPUNIT_ASSERT_EQUAL(std::uint16_t{443}, url->port);
    CPPUNIT_ASSERT_EQUAL(std::string("api.skinport.com"), url->authority);
    CPPUNIT_ASSERT_EQUAL(std::string("/v1/items?app_id=730&currency=EUR"), url->target);
  }

  void testExplicitPortAndNoPath() {
    auto url = parseHttpUrl("http://127.0.0.1:8080");
    CPPUNIT_ASSERT(url.has_value());
    CPPUNIT_ASSERT(!url->secure);
    CPPUNIT_ASSERT_EQUAL(std::uint16_t{8080}, url->port);
    CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1:8080"), url->authority);
    CPPUNIT_ASSERT_EQUAL(std::string("/"), url->target);
    url = parseHttpUrl("http://example.com?q=1");
    CPPUNIT_ASSERT_EQUAL(std::uint16_t{80}, url->port);
    CPPUNIT_ASSERT_EQUAL(std::string("/?q=1"), url->target);
  }

  void testIpv6Literal() {
    const auto url = parseHttpUrl("http://[::1]:9000/x");
    CPPUNIT_ASSERT(url.has_value());
    CPPUNIT_ASSERT_EQUAL(std::string("::1"), url->host);
    CPPUNIT_ASSERT_EQUAL(std::uint16_t{9000}, url->port);
    CPPUNIT_ASSERT_EQUAL(std::string("[::1]:9000"), url->authority);
  }

  void testTargetKeptAsWritten() {
    const auto url = parseHttpUrl(
        "https://steamcommunity.com/market/listings/730/"
        "AK-47%20%7C%20Redline%20%28Field-Tested%29?a=%2F%26");
    CPPUNIT_ASSERT_EQUAL(
        std::string("/market/listings/730/AK-47%20%7C%20Redline%20%28Field-Tested%29?a=%2F%26"),
        url->target);
  }

  void testNonAsciiEncoded() {
    const auto url = parseHttpUrl("http://h/item?name=\u2605");
    CPPUNIT_ASSERT_EQUAL(std::string("/item?name=%E2%98%85"), url->target);
  }

  void testRejected() {
    for (const char* text :
         {"", "ftp://host/", "//host/path", "http://", "http:///path", "http://user:pw@host/",
          "http://host:0/", "http://host:65536/", "http://host:abc/", "http://host:/",
          "http://ho st/", "http://host/a b", "http://host/a\r\nX: y", "http://[::1/",
          "http://[]/"}) {
      CPPUNIT_ASSERT_MESSAGE(text, !parseHttpUrl(text).has_value());
    }
  }

  void testRedact() {
    CPPUNIT_ASSERT_EQUAL(std::string("https://api.example.com/v1/items"),
                         redactUrl("https://api.example.com/v1/items?key=secret&x=1#frag"));
    CPPUNIT_ASSERT_EQUAL(std::string("https://api.example.com/"),
                         redactUrl("https://user:secret@api.example.com/?key=secret"));
    CPPUNIT_ASSERT_EQUAL(std::string("http://h"), redactUrl("http://h#key=secret"));
    CPPUNIT_ASSERT_EQUAL(std::string("not a url"), redactUrl("not a url?key=secret"));
  }

  void testRedactQueryIn() {
    const std::string url = "https://h/p?key=secret&a=1#frag";
    CPPUNIT_ASSERT_EQUAL(std::string("failed for https://h/p?<redacted>#frag, <redacted>"),
                         redactQueryIn("failed for " + url + ", key=secret&a=1", url));
    CPPUNIT_ASSERT_EQUAL(std::string("no query here"), redactQueryIn("no query here", "http://h/"));
    CPPUNIT_ASSERT_EQUAL(std::string("x?"), redactQueryIn("x?", "http://h/?"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(HttpUrlTest);
