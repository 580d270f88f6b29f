// PocoHttpClient::stream (SDK ABI 1.2, docs/adr/0013-streaming-bodies.md): the body reaches
// the sink decoded and in small pieces, under the same deadline and cap as send(), and a
// sink can refuse a body or stop reading it.

#include "ClientTestSupport.hpp"
#include "Compression.hpp"
#include "RawTcpServer.hpp"
#include "TestHttpServer.hpp"
#include "net/PocoHttpClient.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using clienttest::get;
using skinpulse::net::PocoHttpClient;
using skinpulse::sdk::BodySink;
using skinpulse::sdk::Fields;
using Error = skinpulse::sdk::HttpResponse::Error;
using namespace std::chrono_literals;

namespace {

/// Collects what it is given; answers `body_wanted` to the head and stops after `stop_after`.
class RecordingSink final : public BodySink {
 public:
  bool onHead(int status, const Fields&) override {
    heads += 1;
    seen_status = status;
    return body_wanted;
  }
  bool onBody(const char* data, std::size_t size) override {
    largest_piece = std::max(largest_piece, size);
    body.append(data, size);
    return body.size() < stop_after;
  }

  bool body_wanted = true;
  std::size_t stop_after = static_cast<std::size_t>(-1);
  int heads = 0;
  int seen_status = 0;
  std::size_t largest_piece = 0;
  std::string body;
};

std::string pattern(std::size_t size) {
  std::string out(size, ' ');
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<char>('a' + (i * 7 + i / 13) % 26);
  return out;
}

}  // namespace

class PocoHttpClientStreamTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PocoHttpClientStreamTest);
  CPPUNIT_TEST(testIdentityBodyArrivesInPieces);
  CPPUNIT_TEST(testGzipAndBrotliBodiesArriveDecoded);
  CPPUNIT_TEST(testCapCountsDecodedBytes);
  CPPUNIT_TEST(testSinkMayRefuseTheBody);
  CPPUNIT_TEST(testSinkMayStop);
  CPPUNIT_TEST(testTruncatedBodyFails);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testIdentityBodyArrivesInPieces() {
    const std::string body = pattern(300000);
    TestHttpServer server(
        [&body](Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) {
          if (request.getURI() == "/chunked") response.setChunkedTransferEncoding(true);
          response.send() << body;
        });
    PocoHttpClient client;
    for (const char* target : {"/length", "/chunked"}) {
      RecordingSink sink;
      const auto response = client.stream(get(server.url(target)), sink);
      CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kNone);
      CPPUNIT_ASSERT_EQUAL(200, response.status);
      CPPUNIT_ASSERT(response.body.empty());
      CPPUNIT_ASSERT_EQUAL(1, sink.heads);
      CPPUNIT_ASSERT(sink.body == body);
      CPPUNIT_ASSERT(sink.largest_piece <= 16u * 1024);
    }
  }

  void testGzipAndBrotliBodiesArriveDecoded() {
    const std::string body = pattern(200000);
    TestHttpServer server(
        [&body](Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) {
          const bool br = request.getURI() == "/br";
          response.set("Content-Encoding", br ? "br" : "gzip");
          const std::string encoded = br ? testcompress::brotli(body) : testcompress::gzip(body);
          response.sendBuffer(encoded.data(), encoded.size());
        });
    PocoHttpClient client;
    for (const char* target : {"/gzip", "/br"}) {
      RecordingSink sink;
      const auto response = client.stream(get(server.url(target)), sink);
      CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kNone);
      CPPUNIT_ASSERT(sink.body == body);
      CPPUNIT_ASSERT(sink.largest_piece <= 16u * 1024);
    }
  }

  void testCapCountsDecodedBytes() {
    // 64 MiB of zeros in a few hundred KB of gzip: the cap stops it, and the sink never
    // held more than one piece at a time.
    const std::string bomb = testcompress::gzipZeros(64u * 1024 * 1024);
    TestHttpServer server([&bomb](auto&, Poco::Net::HTTPServerResponse& response) {
      response.set("Content-Encoding", "gzip");
      response.sendBuffer(bomb.data(), bomb.size());
    });
    PocoHttpClient client;
    RecordingSink sink;
    const auto response = client.stream(get(server.url("/bomb"), 10s, 1000000), sink);
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTooLarge);
    CPPUNIT_ASSERT(sink.body.size() <= 1000000);
  }

  void testSinkMayRefuseTheBody() {
    TestHttpServer server([](auto&, Poco::Net::HTTPServerResponse& response) {
      response.setStatus(Poco::Net::HTTPResponse::HTTP_TOO_MANY_REQUESTS);
      response.set("Retry-After", "120");
      response.send() << "slow down";
    });
    PocoHttpClient client;
    RecordingSink sink;
    sink.body_wanted = false;
    const auto response = client.stream(get(server.url("/")), sink);
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(429, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("120"), response.header("retry-after").value_or(""));
    CPPUNIT_ASSERT(sink.body.empty());
  }

  void testSinkMayStop() {
    const std::string body = pattern(500000);
    TestHttpServer server([&body](auto&, Poco::Net::HTTPServerResponse& response) {
      response.setChunkedTransferEncoding(true);
      response.send() << body;
    });
    PocoHttpClient client;
    RecordingSink sink;
    sink.stop_after = 1000;
    const auto response = client.stream(get(server.url("/")), sink);
    CPPUNIT_ASSERT(response.error == Error::kProtocol);
    CPPUNIT_ASSERT_MESSAGE(
        response.error_message,
        response.error_message.find("stopped by the reader") != std::string::npos);
    CPPUNIT_ASSERT(sink.body.size() < body.size());
  }

  void testTruncatedBodyFails() {
    // A cut body is an error, so the sink's reader never takes a prefix for the whole.
    RawTcpServer server([](Poco::Net::StreamSocket& socket, const std::atomic<bool>&) {
      RawTcpServer::readRequestHead(socket);
      const std::string reply =
          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n{\"items\":[\r\n64\r\nshort";
      socket.sendBytes(reply.data(), static_cast<int>(reply.size()));
    });
    PocoHttpClient client;
    RecordingSink sink;
    const auto response = client.stream(get(server.url("/"), 5s), sink);
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kProtocol);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PocoHttpClientStreamTest);
