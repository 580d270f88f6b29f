// PocoHttpClient against real servers on 127.0.0.1: what a request carries, what a response
// brings back, and how connection and protocol failures are reported.

#include "ClientTestSupport.hpp"
#include "RawTcpServer.hpp"
#include "TestHttpServer.hpp"
#include "net/PocoHttpClient.hpp"

#include <Poco/StreamCopier.h>
#include <cppunit/extensions/HelperMacros.h>

#include <mutex>
#include <thread>
#include <vector>

using clienttest::get;
using skinpulse::net::PocoHttpClient;
using Error = skinpulse::sdk::HttpResponse::Error;

namespace {

/// The parts of a request the server saw.
struct Seen {
  std::mutex mutex;
  int requests = 0;
  std::string method;
  std::string uri;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  std::string header(const std::string& name) {
    std::lock_guard lock(mutex);
    for (const auto& [key, value] : headers) {
      if (Poco::icompare(key, name) == 0) return value;
    }
    return "<absent>";
  }
};

TestHttpServer::Handler recording(Seen& seen) {
  return [&seen](Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) {
    std::string body;
    Poco::StreamCopier::copyToString(request.stream(), body);
    {
      std::lock_guard lock(seen.mutex);
      ++seen.requests;
      seen.method = request.getMethod();
      seen.uri = request.getURI();
      seen.headers.assign(request.begin(), request.end());
      seen.body = body;
    }
    response.setContentType("text/plain");
    response.sendBuffer("seen", 4);
  };
}

void replyWith(RawTcpServer::Session& session, const std::string& reply) {
  session = [reply](Poco::Net::StreamSocket& socket, const std::atomic<bool>&) {
    RawTcpServer::readRequestHead(socket);
    socket.sendBytes(reply.data(), static_cast<int>(reply.size()));
  };
}

}  // namespace

class PocoHttpClientTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PocoHttpClientTest);
  CPPUNIT_TEST(testGetReturnsBodyAndStatus);
  CPPUNIT_TEST(testRequestCarriesHeadersAndDefaults);
  CPPUNIT_TEST(testPluginHeadersOverrideDefaults);
  CPPUNIT_TEST(testResponseHeadersCopied);
  CPPUNIT_TEST(testPostSendsBodyWithContentLength);
  CPPUNIT_TEST(testLargePostBody);
  CPPUNIT_TEST(testServerErrorPassesThroughAsStatus);
  CPPUNIT_TEST(testRedirectIsNotFollowed);
  CPPUNIT_TEST(testHeadHasNoBody);
  CPPUNIT_TEST(testCloseDelimitedBody);
  CPPUNIT_TEST(testConnectionRefused);
  CPPUNIT_TEST(testErrorMessageOmitsQuery);
  CPPUNIT_TEST(testInvalidUrlRefused);
  CPPUNIT_TEST(testHeaderInjectionRefusedBeforeSending);
  CPPUNIT_TEST(testMalformedResponseIsProtocolError);
  CPPUNIT_TEST(testNoResponseIsProtocolError);
  CPPUNIT_TEST(testTruncatedBodyIsProtocolError);
  CPPUNIT_TEST(testTruncatedChunkedBodyIsProtocolError);
  CPPUNIT_TEST(testConcurrentRequests);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testGetReturnsBodyAndStatus() {
    TestHttpServer server([](auto&, Poco::Net::HTTPServerResponse& response) {
      response.setContentType("application/json");
      response.sendBuffer("{\"ok\":true}", 11);
    });
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/v1/items")));
    CPPUNIT_ASSERT_EQUAL(std::string(), response.error_message);
    CPPUNIT_ASSERT(response.error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("{\"ok\":true}"), response.body);
    CPPUNIT_ASSERT_EQUAL(std::string("application/json"), response.header("content-type").value());
  }

  void testRequestCarriesHeadersAndDefaults() {
    Seen seen;
    TestHttpServer server(recording(seen));
    PocoHttpClient client;
    auto request = get(server.url("/market/priceoverview/?appid=730&name=%E2%98%85%20Bayonet"));
    request.headers = {{"X-Api-Key", "abc"}, {"Accept", "application/json"}};
    const auto response = client.send(request);
    CPPUNIT_ASSERT(response.error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(std::string("GET"), seen.method);
    CPPUNIT_ASSERT_EQUAL(std::string("/market/priceoverview/?appid=730&name=%E2%98%85%20Bayonet"),
                         seen.uri);
    CPPUNIT_ASSERT_EQUAL(std::string("abc"), seen.header("X-Api-Key"));
    CPPUNIT_ASSERT_EQUAL(std::string("application/json"), seen.header("Accept"));
    CPPUNIT_ASSERT_EQUAL(PocoHttpClient::defaultUserAgent(), seen.header("User-Agent"));
    CPPUNIT_ASSERT(seen.header("User-Agent").rfind("skinpulse/", 0) == 0);
    CPPUNIT_ASSERT_EQUAL(std::string("gzip, br"), seen.header("Accept-Encoding"));
    CPPUNIT_ASSERT_EQUAL("127.0.0.1:" + std::to_string(server.port()), seen.header("Host"));
    CPPUNIT_ASSERT_EQUAL(std::string("<absent>"), seen.header("Content-Length"));
  }

  void testPluginHeadersOverrideDefaults() {
    Seen seen;
    TestHttpServer server(recording(seen));
    PocoHttpClient client(skinpulse::net::PocoHttpClientOptions{"configured/2", "/etc/ssl/certs"});
    auto request = get(server.url("/"));
    request.headers = {{"accept-encoding", "br"}};
    CPPUNIT_ASSERT(client.send(request).error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(std::string("br"), seen.header("Accept-Encoding"));
    CPPUNIT_ASSERT_EQUAL(std::string("configured/2"), seen.header("User-Agent"));
    request.headers = {{"User-Agent", "plugin/3"}};
    CPPUNIT_ASSERT(client.send(request).error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(std::string("plugin/3"), seen.header("User-Agent"));
  }

  void testResponseHeadersCopied() {
    TestHttpServer server([](auto&, Poco::Net::HTTPServerResponse& response) {
      response.set("X-RateLimit-Remaining", "7");
      response.add("Set-Cookie", "a=1");
      response.add("Set-Cookie", "b=2");
      response.sendBuffer("", 0);
    });
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT(response.error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(std::string("7"), response.header("x-ratelimit-remaining").value());
    int cookies = 0;
    for (const auto& [name, value] : response.headers) cookies += name == "Set-Cookie" ? 1 : 0;
    CPPUNIT_ASSERT_EQUAL(2, cookies);
    CPPUNIT_ASSERT(!response.header("X-Absent").has_value());
  }

  void testPostSendsBodyWithContentLength() {
    Seen seen;
    TestHttpServer server(recording(seen));
    PocoHttpClient client;
    auto request = get(server.url("/token"));
    request.method = "POST";
    request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
    request.body = "grant_type=authorization_code&code=xyz";
    const auto response = client.send(request);
    CPPUNIT_ASSERT(response.error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(std::string("POST"), seen.method);
    CPPUNIT_ASSERT_EQUAL(request.body, seen.body);
    CPPUNIT_ASSERT_EQUAL(std::to_string(request.body.size()), seen.header("Content-Length"));
    CPPUNIT_ASSERT_EQUAL(std::string("application/x-www-form-urlencoded"),
                         seen.header("Content-Type"));

    request.body.clear();  // an empty POST still says so
    CPPUNIT_ASSERT(client.send(request).error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(std::string("0"), seen.header("Content-Length"));
  }

  void testLargePostBody() {
    Seen seen;
    TestHttpServer server(recording(seen));
    PocoHttpClient client;
    auto request = get(server.url("/upload"));
    request.method = "POST";
    request.body.assign(3 * 1024 * 1024, 'p');
    CPPUNIT_ASSERT(client.send(request).error == Error::kNone);
    CPPUNIT_ASSERT(seen.body == request.body);
  }

  void testServerErrorPassesThroughAsStatus() {
    TestHttpServer server([](auto&, Poco::Net::HTTPServerResponse& response) {
      response.setStatus(Poco::Net::HTTPResponse::HTTP_INTERNAL_SERVER_ERROR);
      response.sendBuffer("oops", 4);
    });
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT(response.error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(500, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("oops"), response.body);
  }

  void testRedirectIsNotFollowed() {
    Seen seen;
    TestHttpServer server([&seen](auto&, Poco::Net::HTTPServerResponse& response) {
      {
        std::lock_guard lock(seen.mutex);
        ++seen.requests;
      }
      response.set("Location", "/elsewhere");
      response.setStatus(Poco::Net::HTTPResponse::HTTP_FOUND);
      response.sendBuffer("moved", 5);
    });
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/here")));
    CPPUNIT_ASSERT(response.error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(302, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("/elsewhere"), response.header("Location").value());
    CPPUNIT_ASSERT_EQUAL(1, seen.requests);
  }

  void testHeadHasNoBody() {
    TestHttpServer server([](auto&, Poco::Net::HTTPServerResponse& response) {
      response.setContentLength(1000);
      response.send();
    });
    PocoHttpClient client;
    auto request = get(server.url("/"), std::chrono::seconds(5));
    request.method = "HEAD";
    const auto response = client.send(request);
    CPPUNIT_ASSERT(response.error == Error::kNone);
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    CPPUNIT_ASSERT(response.body.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("1000"), response.header("Content-Length").value());
  }

  void testCloseDelimitedBody() {
    RawTcpServer::Session session;
    replyWith(session, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end");
    RawTcpServer server(session);
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT_EQUAL(std::string(), response.error_message);
    CPPUNIT_ASSERT_EQUAL(std::string("until the end"), response.body);
  }

  void testConnectionRefused() {
    PocoHttpClient client;
    const auto started = clienttest::Clock::now();
    const auto response =
        client.send(get("http://127.0.0.1:" + std::to_string(clienttest::closedPort()) + "/"));
    CPPUNIT_ASSERT(response.error == Error::kConnect);
    CPPUNIT_ASSERT(!response.error_message.empty());
    CPPUNIT_ASSERT(clienttest::since(started) < std::chrono::seconds(5));
  }

  void testErrorMessageOmitsQuery() {
    PocoHttpClient client;
    const std::string base =
        "http://127.0.0.1:" + std::to_string(clienttest::closedPort()) + "/v1/prices";
    const auto response = client.send(get(base + "?key=secret&currency=USD"));
    CPPUNIT_ASSERT(response.error == Error::kConnect);
    CPPUNIT_ASSERT_MESSAGE(response.error_message,
                           response.error_message.find("secret") == std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(response.error_message,
                           response.error_message.find(base) != std::string::npos);
  }

  void testInvalidUrlRefused() {
    PocoHttpClient client;
    for (const char* url : {"ftp://host/file?key=secret", "http://user:secret@host/",
                            "http://host/a b?key=secret", "not a url?key=secret"}) {
      const auto response = client.send(get(url));
      CPPUNIT_ASSERT_MESSAGE(url, response.error == Error::kProtocol);
      CPPUNIT_ASSERT_MESSAGE(response.error_message,
                             response.error_message.find("secret") == std::string::npos);
    }
  }

  void testHeaderInjectionRefusedBeforeSending() {
    Seen seen;
    TestHttpServer server(recording(seen));
    PocoHttpClient client;
    auto request = get(server.url("/"));
    request.headers = {{"X-Note", "a\r\nX-Injected: yes"}};
    CPPUNIT_ASSERT(client.send(request).error == Error::kProtocol);
    request.headers.clear();
    request.method = "GET / HTTP/1.1\r\nX:";
    CPPUNIT_ASSERT(client.send(request).error == Error::kProtocol);
    CPPUNIT_ASSERT_EQUAL(0, seen.requests);
  }

  void testMalformedResponseIsProtocolError() {
    RawTcpServer::Session session;
    replyWith(session, "SSH-2.0-OpenSSH_9.2\r\n\r\n");
    RawTcpServer server(session);
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kProtocol);
  }

  void testNoResponseIsProtocolError() {
    RawTcpServer::Session session;
    replyWith(session, "");
    RawTcpServer server(session);
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kProtocol);
  }

  void testTruncatedBodyIsProtocolError() {
    RawTcpServer::Session session;
    replyWith(session, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b");
    RawTcpServer server(session);
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kProtocol);
  }

  void testTruncatedChunkedBodyIsProtocolError() {
    RawTcpServer::Session session;
    replyWith(session,
              "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
              "a\r\n0123456789\r\n64\r\nshort");
    RawTcpServer server(session);
    PocoHttpClient client;
    const auto response = client.send(get(server.url("/")));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kProtocol);
  }

  void testConcurrentRequests() {
    TestHttpServer server(
        [](Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response) {
          const std::string uri = request.getURI();
          response.sendBuffer(uri.data(), uri.size());
        });
    PocoHttpClient client;
    std::atomic<int> good{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < 10; ++i) {
          const std::string target = "/item/" + std::to_string(t) + "/" + std::to_string(i);
          const auto response = client.send(get(server.url(target)));
          if (response.error == Error::kNone && response.body == target) ++good;
        }
      });
    }
    for (auto& thread : threads) thread.join();
    CPPUNIT_ASSERT_EQUAL(80, good.load());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PocoHttpClientTest);
