#include "net/RequestHeaders.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::net::buildRequestHead;

class RequestHeadersTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RequestHeadersTest);
  CPPUNIT_TEST(testDefaultsAdded);
  CPPUNIT_TEST(testPluginChoicesWin);
  CPPUNIT_TEST(testRepeatedHeadersKept);
  CPPUNIT_TEST(testFramingHeadersNotCopied);
  CPPUNIT_TEST(testInjectionRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testDefaultsAdded() {
    skinpulse::sdk::HttpRequest request;
    Poco::Net::HTTPRequest head;
    CPPUNIT_ASSERT(!buildRequestHead(request, "example.com:8080", "skinpulse/9", head));
    CPPUNIT_ASSERT_EQUAL(std::string("GET"), head.getMethod());
    CPPUNIT_ASSERT_EQUAL(std::string("example.com:8080"), head.get("Host"));
    CPPUNIT_ASSERT_EQUAL(std::string("skinpulse/9"), head.get("User-Agent"));
    CPPUNIT_ASSERT_EQUAL(std::string("gzip, br"), head.get("Accept-Encoding"));
    CPPUNIT_ASSERT(!head.getKeepAlive());
  }

  void testPluginChoicesWin() {
    skinpulse::sdk::HttpRequest request;
    request.method = "POST";
    request.headers = {{"accept-encoding", "br"}, {"user-agent", "mine/1"}, {"host", "h"}};
    Poco::Net::HTTPRequest head;
    CPPUNIT_ASSERT(!buildRequestHead(request, "example.com", "skinpulse/9", head));
    CPPUNIT_ASSERT_EQUAL(std::string("POST"), head.getMethod());
    CPPUNIT_ASSERT_EQUAL(std::string("br"), head.get("Accept-Encoding"));
    CPPUNIT_ASSERT_EQUAL(std::string("mine/1"), head.get("User-Agent"));
    CPPUNIT_ASSERT_EQUAL(std::string("h"), head.get("Host"));
  }

  void testRepeatedHeadersKept() {
    skinpulse::sdk::HttpRequest request;
    request.headers = {{"Cookie", "a=1"}, {"Cookie", "b=2"}};
    Poco::Net::HTTPRequest head;
    CPPUNIT_ASSERT(!buildRequestHead(request, "h", "ua", head));
    std::vector<std::string> cookies;
    for (const auto& [name, value] : head) {
      if (name == "Cookie") cookies.push_back(value);
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, cookies.size());
  }

  void testFramingHeadersNotCopied() {
    skinpulse::sdk::HttpRequest request;
    request.headers = {{"Content-Length", "5"}, {"Transfer-Encoding", "chunked"}};
    Poco::Net::HTTPRequest head;
    CPPUNIT_ASSERT(!buildRequestHead(request, "h", "ua", head));
    CPPUNIT_ASSERT(!head.has("Content-Length"));
    CPPUNIT_ASSERT(!head.has("Transfer-Encoding"));
  }

  void testInjectionRefused() {
    Poco::Net::HTTPRequest head;
    skinpulse::sdk::HttpRequest request;
    request.headers = {{"X-Ok", "fine\r\nX-Evil: 1"}};
    CPPUNIT_ASSERT(buildRequestHead(request, "h", "ua", head).has_value());
    request.headers = {{"Bad Name", "v"}};
    CPPUNIT_ASSERT(buildRequestHead(request, "h", "ua", head).has_value());
    request.headers = {{"X", std::string("a\0b", 3)}};
    CPPUNIT_ASSERT(buildRequestHead(request, "h", "ua", head).has_value());
    request.headers.clear();
    request.method = "GET /evil HTTP/1.1\r\n";
    CPPUNIT_ASSERT(buildRequestHead(request, "h", "ua", head).has_value());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RequestHeadersTest);
