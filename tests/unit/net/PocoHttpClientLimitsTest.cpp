// PocoHttpClient's limits: the deadline of the whole exchange and the cap on the body,
// each checked from the client side (elapsed time, error kind) and, for the cap, from the
// server side (the client stopped reading long before the end).

#include "ClientTestSupport.hpp"
#include "RawTcpServer.hpp"
#include "TestHttpServer.hpp"
#include "net/PocoHttpClient.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <thread>

using clienttest::Clock;
using clienttest::get;
using clienttest::since;
using skinpulse::net::PocoHttpClient;
using Error = skinpulse::sdk::HttpResponse::Error;
using namespace std::chrono_literals;

namespace {

constexpr std::uint64_t kFiftyMegabytes = 50u * 1024 * 1024;
constexpr std::size_t kOneMegabyte = 1024 * 1024;

/// Sends `head` at once, then `drip` one byte every 100 ms until the client goes away.
RawTcpServer::Session dripping(std::string head, char drip) {
  return [head, drip](Poco::Net::StreamSocket& socket, const std::atomic<bool>& stop) {
    RawTcpServer::readRequestHead(socket);
    socket.sendBytes(head.data(), static_cast<int>(head.size()));
    for (int i = 0; i < 300 && !stop; ++i) {
      std::this_thread::sleep_for(100ms);
      if (socket.sendBytes(&drip, 1) != 1) return;
    }
  };
}

}  // namespace

class PocoHttpClientLimitsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PocoHttpClientLimitsTest);
  CPPUNIT_TEST(testSlowServerTimesOut);
  CPPUNIT_TEST(testDripFedHeadersHitTheDeadline);
  CPPUNIT_TEST(testDripFedBodyHitsTheDeadline);
  CPPUNIT_TEST(testTimeoutMessageOmitsQuery);
  CPPUNIT_TEST(testContentLengthOverCapRefusedBeforeReading);
  CPPUNIT_TEST(testChunkedBodyOverCapStopsReading);
  CPPUNIT_TEST(testBodyAtCapAccepted);
  CPPUNIT_TEST(testBodyOneOverCapRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testSlowServerTimesOut() {
    clienttest::Gate gate;
    TestHttpServer server([&gate](auto&, Poco::Net::HTTPServerResponse& response) {
      gate.waitFor(10s);
      response.sendBuffer("late", 4);
    });
    const clienttest::OpenOnExit open_gate{gate};
    PocoHttpClient client;
    const auto started = Clock::now();
    const auto response = client.send(get(server.url("/slow"), 500ms));
    const auto elapsed = since(started);
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTimeout);
    CPPUNIT_ASSERT(elapsed >= 450ms);
    CPPUNIT_ASSERT(elapsed < 500ms + 2s);
  }

  void testDripFedHeadersHitTheDeadline() {
    // Each byte comes well within the socket timeout; only the total deadline stops it.
    RawTcpServer server(dripping("HTTP/1.1 200 OK\r\nX-Drip: ", 'a'));
    PocoHttpClient client;
    const auto started = Clock::now();
    const auto response = client.send(get(server.url("/"), 1000ms));
    const auto elapsed = since(started);
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTimeout);
    CPPUNIT_ASSERT(elapsed >= 900ms);
    CPPUNIT_ASSERT(elapsed < 1000ms + 2s);
  }

  void testDripFedBodyHitsTheDeadline() {
    RawTcpServer server(dripping("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n", 'b'));
    PocoHttpClient client;
    const auto started = Clock::now();
    const auto response = client.send(get(server.url("/"), 1000ms));
    const auto elapsed = since(started);
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTimeout);
    CPPUNIT_ASSERT(elapsed < 1000ms + 2s);
  }

  void testTimeoutMessageOmitsQuery() {
    clienttest::Gate gate;
    TestHttpServer server([&gate](auto&, Poco::Net::HTTPServerResponse& response) {
      gate.waitFor(10s);
      response.sendBuffer("late", 4);
    });
    const clienttest::OpenOnExit open_gate{gate};
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/v1/items?key=secret"), 300ms));
    CPPUNIT_ASSERT(response.error == Error::kTimeout);
    CPPUNIT_ASSERT_MESSAGE(response.error_message,
                           response.error_message.find("secret") == std::string::npos);
    CPPUNIT_ASSERT(response.error_message.find("/v1/items") != std::string::npos);
  }

  void testContentLengthOverCapRefusedBeforeReading() {
    clienttest::StreamRecord record;
    TestHttpServer server([&record](auto&, Poco::Net::HTTPServerResponse& response) {
      clienttest::streamBody(response, record, kFiftyMegabytes, false);
    });
    PocoHttpClient client;
    const auto started = Clock::now();
    const auto response = client.send(get(server.url("/big"), 10s, kOneMegabyte));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTooLarge);
    CPPUNIT_ASSERT(response.error_message.find("Content-Length") != std::string::npos);
    CPPUNIT_ASSERT(response.body.empty());
    CPPUNIT_ASSERT(since(started) < 2s);
    CPPUNIT_ASSERT(record.done.get_future().wait_for(10s) == std::future_status::ready);
    CPPUNIT_ASSERT(record.failed);
    CPPUNIT_ASSERT(record.written < kFiftyMegabytes);
  }

  void testChunkedBodyOverCapStopsReading() {
    clienttest::StreamRecord record;
    TestHttpServer server([&record](auto&, Poco::Net::HTTPServerResponse& response) {
      clienttest::streamBody(response, record, kFiftyMegabytes, true);
    });
    PocoHttpClient client;
    const auto started = Clock::now();
    const auto response = client.send(get(server.url("/big"), 10s, kOneMegabyte));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTooLarge);
    CPPUNIT_ASSERT(since(started) < 2s);
    // The server finds out: its writes fail once the client has closed, far from the end.
    CPPUNIT_ASSERT(record.done.get_future().wait_for(10s) == std::future_status::ready);
    CPPUNIT_ASSERT(record.failed);
    CPPUNIT_ASSERT(record.written < kFiftyMegabytes / 2);
  }

  void testBodyAtCapAccepted() {
    TestHttpServer server(
        [](Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) {
          if (request.getURI() == "/chunked") response.setChunkedTransferEncoding(true);
          response.send() << std::string(1000, 'c');
        });
    PocoHttpClient client;
    for (const char* target : {"/length", "/chunked"}) {
      const auto response = client.send(get(server.url(target), 10s, 1000));
      CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kNone);
      CPPUNIT_ASSERT_EQUAL(std::size_t{1000}, response.body.size());
    }
  }

  void testBodyOneOverCapRefused() {
    TestHttpServer server(
        [](Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) {
          if (request.getURI() == "/chunked") {
            response.setChunkedTransferEncoding(true);
          } else {
            response.setContentLength(1000);
          }
          response.send() << std::string(1000, 'c');
        });
    PocoHttpClient client;
    for (const char* target : {"/length", "/chunked"}) {
      const auto response = client.send(get(server.url(target), 10s, 999));
      CPPUNIT_ASSERT_MESSAGE(target, response.error == Error::kTooLarge);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PocoHttpClientLimitsTest);
