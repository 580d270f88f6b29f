// PocoHttpClient's content decoding end to end: gzip, deflate and br bodies come back
// decoded, the cap applies to the decoded size, and bombs are refused quickly.

#include "ClientTestSupport.hpp"
#include "Compression.hpp"
#include "TestHttpServer.hpp"
#include "net/PocoHttpClient.hpp"

#include <cppunit/extensions/HelperMacros.h>

using clienttest::Clock;
using clienttest::get;
using clienttest::since;
using skinpulse::net::PocoHttpClient;
using Error = skinpulse::sdk::HttpResponse::Error;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t kOneMegabyte = 1024 * 1024;

std::string itemsJson() {
  std::string json = "[";
  for (int i = 0; i < 3000; ++i) {
    if (i > 0) json += ",";
    json += "{\"market_hash_name\":\"\u2605 Karambit | Fade (Factory New)\",\"min_price\":" +
            std::to_string(1000 + i) + "}";
  }
  return json + "]";
}

/// Serves `body` labelled with `encoding`; when `chunked`, without a Content-Length.
TestHttpServer::Handler serving(std::string body, std::string encoding, bool chunked = false) {
  return [body, encoding, chunked](auto&, Poco::Net::HTTPServerResponse& response) {
    if (!encoding.empty()) response.set("Content-Encoding", encoding);
    response.setContentType("application/json");
    if (chunked) {
      response.setChunkedTransferEncoding(true);
      response.send().write(body.data(), static_cast<std::streamsize>(body.size()));
    } else {
      response.sendBuffer(body.data(), body.size());
    }
  };
}

}  // namespace

class PocoHttpClientEncodingTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PocoHttpClientEncodingTest);
  CPPUNIT_TEST(testGzipBodyDecoded);
  CPPUNIT_TEST(testChunkedGzipBodyDecoded);
  CPPUNIT_TEST(testDeflateBodiesDecoded);
  CPPUNIT_TEST(testBrotliBodyDecoded);
  CPPUNIT_TEST(testSkinportStyleBrotliOnly);
  CPPUNIT_TEST(testCapAppliesToDecodedSize);
  CPPUNIT_TEST(testGzipBombRefusedQuickly);
  CPPUNIT_TEST(testBrotliBombRefusedQuickly);
  CPPUNIT_TEST(testUnknownEncodingIsProtocolError);
  CPPUNIT_TEST(testCorruptBodyIsProtocolError);
  CPPUNIT_TEST(testTruncatedGzipIsProtocolError);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testGzipBodyDecoded() {
    const std::string json = itemsJson();
    TestHttpServer server(serving(testcompress::gzip(json), "gzip"));
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/v1/items")));
    CPPUNIT_ASSERT_EQUAL(std::string(), response.error_message);
    CPPUNIT_ASSERT(response.body == json);
    CPPUNIT_ASSERT_EQUAL(std::string("gzip"), response.header("Content-Encoding").value());
  }

  void testChunkedGzipBodyDecoded() {
    const std::string json = itemsJson();
    TestHttpServer server(serving(testcompress::gzip(json), "gzip", true));
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT_EQUAL(std::string(), response.error_message);
    CPPUNIT_ASSERT(response.body == json);
  }

  void testDeflateBodiesDecoded() {
    const std::string json = itemsJson();
    PocoHttpClient client;
    for (const std::string& encoded : {testcompress::zlib(json), testcompress::rawDeflate(json)}) {
      TestHttpServer server(serving(encoded, "deflate"));
      const auto response = client.send(get(server.url("/")));
      CPPUNIT_ASSERT_EQUAL(std::string(), response.error_message);
      CPPUNIT_ASSERT(response.body == json);
    }
  }

  void testBrotliBodyDecoded() {
    const std::string json = itemsJson();
    TestHttpServer server(serving(testcompress::brotli(json), "br", true));
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT_EQUAL(std::string(), response.error_message);
    CPPUNIT_ASSERT(response.body == json);
  }

  void testSkinportStyleBrotliOnly() {
    // docs/upstreams.md b.3: Skinport answers only requests that accept br.
    const std::string json = itemsJson();
    const std::string encoded = testcompress::brotli(json);
    TestHttpServer server(
        [&encoded](Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) {
          if (request.get("Accept-Encoding", "").find("br") == std::string::npos) {
            response.setStatus(Poco::Net::HTTPResponse::HTTP_NOT_ACCEPTABLE);
            response.sendBuffer("br required", 11);
            return;
          }
          response.set("Content-Encoding", "br");
          response.sendBuffer(encoded.data(), encoded.size());
        });
    PocoHttpClient client;
    auto request = get(server.url("/v1/items?app_id=730&currency=EUR"));
    request.headers = {{"Accept-Encoding", "br"}};
    auto response = client.send(request);
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    CPPUNIT_ASSERT(response.body == json);
    response = client.send(get(server.url("/v1/items")));  // the default accepts br too
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    CPPUNIT_ASSERT(response.body == json);
  }

  void testCapAppliesToDecodedSize() {
    const std::string big(2 * kOneMegabyte, 'a');
    const std::string encoded = testcompress::gzip(big);
    CPPUNIT_ASSERT(encoded.size() < kOneMegabyte);
    TestHttpServer server(serving(encoded, "gzip"));
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/"), 10s, kOneMegabyte));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTooLarge);
    CPPUNIT_ASSERT(response.body.empty());
  }

  void testGzipBombRefusedQuickly() {
    const std::string bomb = testcompress::gzipZeros(100u * kOneMegabyte);  // ~100 KB
    CPPUNIT_ASSERT(bomb.size() < 200u * 1024);
    TestHttpServer server(serving(bomb, "gzip"));
    PocoHttpClient client;
    const auto started = Clock::now();
    const auto response = client.send(get(server.url("/"), 10s, kOneMegabyte));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTooLarge);
    CPPUNIT_ASSERT(since(started) < 2s);
  }

  void testBrotliBombRefusedQuickly() {
    const std::string bomb = testcompress::brotliZeros(100u * kOneMegabyte);
    TestHttpServer server(serving(bomb, "br", true));
    PocoHttpClient client;
    const auto started = Clock::now();
    const auto response = client.send(get(server.url("/"), 10s, kOneMegabyte));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTooLarge);
    CPPUNIT_ASSERT(since(started) < 2s);
  }

  void testUnknownEncodingIsProtocolError() {
    TestHttpServer server(serving("whatever", "zstd"));
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT(response.error == Error::kProtocol);
    CPPUNIT_ASSERT(response.error_message.find("zstd") != std::string::npos);
  }

  void testCorruptBodyIsProtocolError() {
    PocoHttpClient client;
    for (const char* encoding : {"gzip", "deflate", "br"}) {
      TestHttpServer server(serving(std::string(300, '\xfe'), encoding));
      const auto response = client.send(get(server.url("/")));
      CPPUNIT_ASSERT_MESSAGE(encoding, response.error == Error::kProtocol);
    }
  }

  void testTruncatedGzipIsProtocolError() {
    const std::string encoded = testcompress::gzip(itemsJson());
    TestHttpServer server(serving(encoded.substr(0, encoded.size() / 2), "gzip"));
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kProtocol);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PocoHttpClientEncodingTest);
