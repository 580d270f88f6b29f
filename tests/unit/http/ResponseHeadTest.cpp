#include "http/ResponseHead.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using namespace skinpulse::http;

class ResponseHeadTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ResponseHeadTest);
  CPPUNIT_TEST(statusLineDateTypeLength);
  CPPUNIT_TEST(connectionHeader);
  CPPUNIT_TEST(switchingProtocolsAnnouncesNoLength);
  CPPUNIT_TEST(handlerContentTypeWins);
  CPPUNIT_TEST(headerFieldsWithLineBreaksAreUnsafe);
  CPPUNIT_TEST_SUITE_END();

  static bool has(const std::string& head, const std::string& text) {
    return head.find(text) != std::string::npos;
  }

 public:
  void statusLineDateTypeLength() {
    Response response;
    response.json("{}", 404);
    response.setHeader("X-Frame-Options", "DENY");
    const auto head = responseHead(response, 2, ConnectionHeader::kNone);
    CPPUNIT_ASSERT(head.rfind("HTTP/1.1 404 Not Found\r\nDate: ", 0) == 0);
    CPPUNIT_ASSERT(has(head, " GMT\r\n"));
    CPPUNIT_ASSERT(has(head, "\r\nContent-Type: application/json; charset=utf-8\r\n"));
    CPPUNIT_ASSERT(has(head, "\r\nContent-Length: 2\r\n"));
    CPPUNIT_ASSERT(has(head, "\r\nX-Frame-Options: DENY\r\n"));
    CPPUNIT_ASSERT(!has(head, "Connection:"));
    CPPUNIT_ASSERT(head.size() >= 4 && head.compare(head.size() - 4, 4, "\r\n\r\n") == 0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(29), httpDate().size());
  }

  void connectionHeader() {
    Response response;
    CPPUNIT_ASSERT(
        has(responseHead(response, 0, ConnectionHeader::kClose), "Connection: close\r\n"));
    CPPUNIT_ASSERT(
        has(responseHead(response, 0, ConnectionHeader::kKeepAlive), "Connection: keep-alive\r\n"));
  }

  void switchingProtocolsAnnouncesNoLength() {
    Response response;
    response.status = 101;
    response.content_type.clear();
    response.setHeader("Upgrade", "websocket");
    const auto head = responseHead(response, 0, ConnectionHeader::kNone);
    CPPUNIT_ASSERT(head.rfind("HTTP/1.1 101 Switching Protocols\r\n", 0) == 0);
    CPPUNIT_ASSERT(!has(head, "Content-Length"));
    CPPUNIT_ASSERT(!has(head, "Content-Type"));
  }

  void handlerContentTypeWins() {
    Response response;
    response.setHeader("Content-Type", "text/csv");
    const auto head = responseHead(response, 0, ConnectionHeader::kNone);
    CPPUNIT_ASSERT(has(head, "Content-Type: text/csv\r\n"));
    CPPUNIT_ASSERT(!has(head, "application/json"));
  }

  void headerFieldsWithLineBreaksAreUnsafe() {
    Response sound;
    sound.setHeader("X-Request-Id", "abc \t 123");
    CPPUNIT_ASSERT(!unsafeHeaderField(sound));
    for (const std::string& value : {std::string("a\r\nSet-Cookie: x=1"), std::string("a\nb"),
                                     std::string("a\rb"), std::string("a\0b", 3)}) {
      Response response;
      response.setHeader("X-Echo", value);
      const auto field = unsafeHeaderField(response);
      CPPUNIT_ASSERT(field);
      CPPUNIT_ASSERT_EQUAL(std::string("X-Echo"), *field);
    }
    for (const char* name : {"", "X Echo", "X-Echo:", "X-\r\nA"}) {
      Response response;
      response.headers.emplace_back(name, "1");
      CPPUNIT_ASSERT(unsafeHeaderField(response));
    }
    Response type;
    type.content_type = "text/html\r\nX-Injected: 1";
    CPPUNIT_ASSERT_EQUAL(std::string("Content-Type"), unsafeHeaderField(type).value_or(""));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ResponseHeadTest);
