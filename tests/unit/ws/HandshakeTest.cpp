#include "http/HttpError.hpp"
#include "ws/Handshake.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

class HandshakeTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HandshakeTest);
  CPPUNIT_TEST(acceptKeyMatchesRfc6455);
  CPPUNIT_TEST(acceptsABrowserHandshake);
  CPPUNIT_TEST(refusals);
  CPPUNIT_TEST_SUITE_END();

  static http::Request upgrade() {
    http::Request request;
    request.method = "GET";
    request.path = "/api/v1/ws";
    request.headers = {{"Upgrade", "WebSocket"},
                       {"Connection", "keep-alive, Upgrade"},
                       {"Sec-WebSocket-Version", "13"},
                       {"Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="}};
    return request;
  }

  static void set(http::Request& request, const std::string& name, const std::string& value) {
    for (auto& [key, current] : request.headers) {
      if (key == name) current = value;
    }
  }

  static int refusal(const http::Request& request, std::string& code) {
    http::Response response;
    try {
      ws::acceptHandshake(request, response);
    } catch (const http::HttpError& error) {
      code = error.code();
      return error.status();
    }
    return response.status;
  }

 public:
  void acceptKeyMatchesRfc6455() {
    CPPUNIT_ASSERT_EQUAL(std::string("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
                         ws::acceptKey("dGhlIHNhbXBsZSBub25jZQ=="));
  }

  void acceptsABrowserHandshake() {
    http::Response response;
    ws::acceptHandshake(upgrade(), response);
    CPPUNIT_ASSERT_EQUAL(101, response.status);
    CPPUNIT_ASSERT(response.body.empty());
    bool accept = false;
    for (const auto& [name, value] : response.headers) {
      if (name == "Sec-WebSocket-Accept") accept = value == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";
    }
    CPPUNIT_ASSERT(accept);
  }

  void refusals() {
    std::string code;
    auto request = upgrade();
    set(request, "Upgrade", "h2c");
    CPPUNIT_ASSERT_EQUAL(426, refusal(request, code));
    CPPUNIT_ASSERT_EQUAL(std::string("upgrade_required"), code);
    request = upgrade();
    set(request, "Connection", "keep-alive");
    CPPUNIT_ASSERT_EQUAL(426, refusal(request, code));
    request = upgrade();
    set(request, "Sec-WebSocket-Version", "8");
    CPPUNIT_ASSERT_EQUAL(426, refusal(request, code));
    for (const char* key : {"", "short==", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25j*Q=="}) {
      request = upgrade();
      set(request, "Sec-WebSocket-Key", key);
      CPPUNIT_ASSERT_EQUAL(400, refusal(request, code));
      CPPUNIT_ASSERT_EQUAL(std::string("invalid_request"), code);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(HandshakeTest);
