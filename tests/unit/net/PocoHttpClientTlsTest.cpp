// PocoHttpClient over https against a local Poco server with test certificates
// (tls/make-certs.sh): a trusted chain passes, an untrusted one or a wrong host name fails,
// and the deadline holds over TLS too.

#include "ClientTestSupport.hpp"
#include "TestHttpServer.hpp"
#include "net/PocoHttpClient.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/SSLManager.h>
#include <cppunit/extensions/HelperMacros.h>

using clienttest::Clock;
using clienttest::get;
using clienttest::since;
using skinpulse::net::PocoHttpClient;
using skinpulse::net::PocoHttpClientOptions;
using Error = skinpulse::sdk::HttpResponse::Error;
using namespace std::chrono_literals;

namespace {

const std::string kTlsDir = SKINPULSE_SOURCE_DIR "/tests/unit/net/tls/";

Poco::Net::Context::Ptr serverContext(const std::string& name) {
  return new Poco::Net::Context(Poco::Net::Context::TLS_SERVER_USE, kTlsDir + name + ".key",
                                kTlsDir + name + ".pem", "", Poco::Net::Context::VERIFY_NONE);
}

PocoHttpClientOptions trustingTestCa() { return PocoHttpClientOptions{"", kTlsDir + "ca.pem"}; }

void hello(Poco::Net::HTTPServerRequest&, Poco::Net::HTTPServerResponse& response) {
  response.sendBuffer("hello over tls", 14);
}

}  // namespace

class PocoHttpClientTlsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PocoHttpClientTlsTest);
  CPPUNIT_TEST(testTrustedCertificateAccepted);
  CPPUNIT_TEST(testUntrustedCertificateRejected);
  CPPUNIT_TEST(testSystemStoreDoesNotTrustTestCa);
  CPPUNIT_TEST(testHostNameMismatchRejected);
  CPPUNIT_TEST(testSlowTlsServerTimesOut);
  CPPUNIT_TEST(testUnusableCaLocationThrows);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override { Poco::Net::initializeSSL(); }
  void tearDown() override { Poco::Net::uninitializeSSL(); }

  void testTrustedCertificateAccepted() {
    TestHttpServer server(hello, serverContext("localhost"));
    PocoHttpClient client(trustingTestCa());
    const auto response = client.send(get(server.url("/", "localhost")));
    CPPUNIT_ASSERT_EQUAL(std::string(), response.error_message);
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("hello over tls"), response.body);
  }

  void testUntrustedCertificateRejected() {
    TestHttpServer server(hello, serverContext("selfsigned"));
    PocoHttpClient client(trustingTestCa());
    const auto response = client.send(get(server.url("/?key=secret", "localhost")));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kConnect);
    CPPUNIT_ASSERT(response.error_message.find("secret") == std::string::npos);
  }

  void testSystemStoreDoesNotTrustTestCa() {
    TestHttpServer server(hello, serverContext("localhost"));
    PocoHttpClient client;  // /etc/ssl/certs
    const auto response = client.send(get(server.url("/", "localhost")));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kConnect);
  }

  void testHostNameMismatchRejected() {
    TestHttpServer server(hello, serverContext("other"));  // for other.invalid, same CA
    PocoHttpClient client(trustingTestCa());
    const auto response = client.send(get(server.url("/", "localhost")));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kConnect);
  }

  void testSlowTlsServerTimesOut() {
    clienttest::Gate gate;
    TestHttpServer server(
        [&gate](auto&, Poco::Net::HTTPServerResponse& response) {
          gate.waitFor(10s);
          response.sendBuffer("late", 4);
        },
        serverContext("localhost"));
    const clienttest::OpenOnExit open_gate{gate};
    PocoHttpClient client(trustingTestCa());
    const auto started = Clock::now();
    const auto response = client.send(get(server.url("/", "localhost"), 700ms));
    CPPUNIT_ASSERT_MESSAGE(response.error_message, response.error == Error::kTimeout);
    CPPUNIT_ASSERT(since(started) < 700ms + 2s);
  }

  void testUnusableCaLocationThrows() {
    CPPUNIT_ASSERT_THROW(PocoHttpClient(PocoHttpClientOptions{"", "/nonexistent/ca.pem"}),
                         Poco::Exception);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PocoHttpClientTlsTest);
