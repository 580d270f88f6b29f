#include "http/ClientAddress.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using http::TrustedProxies;

namespace {

http::Request makeRequest(const std::string& method, const std::string& path,
                          http::Headers headers = {}, const std::string& peer = "192.0.2.10") {
  http::Request request;
  request.method = method;
  request.path = path;
  request.target = path;
  request.headers = std::move(headers);
  request.client_address = peer;
  return request;
}

}  // namespace

class ClientAddressTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ClientAddressTest);
  CPPUNIT_TEST(testWithoutTrustedProxiesThePeerIsTheClient);
  CPPUNIT_TEST(testUntrustedPeerCannotForgeTheHeader);
  CPPUNIT_TEST(testTrustedPeerIsBelieved);
  CPPUNIT_TEST(testChainIsReadFromTheRight);
  CPPUNIT_TEST(testMalformedEntriesStopTheWalk);
  CPPUNIT_TEST(testCidrMatching);
  CPPUNIT_TEST(testMappedIpv4IsIpv4);
  CPPUNIT_TEST(testRateLimitKeys);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testWithoutTrustedProxiesThePeerIsTheClient() {
    const TrustedProxies none({});
    CPPUNIT_ASSERT_EQUAL(std::string("192.0.2.10"),
                         none.clientAddress(xff("192.0.2.10", "203.0.113.5")));
  }

  void testUntrustedPeerCannotForgeTheHeader() {
    const TrustedProxies proxies({"10.0.0.0/8"});
    CPPUNIT_ASSERT_EQUAL(std::string("192.0.2.10"),
                         proxies.clientAddress(xff("192.0.2.10", "203.0.113.5")));
  }

  void testTrustedPeerIsBelieved() {
    const TrustedProxies proxies({"10.0.0.0/8"});
    CPPUNIT_ASSERT_EQUAL(std::string("203.0.113.5"),
                         proxies.clientAddress(xff("10.1.2.3", "203.0.113.5")));
    // No header behind a trusted proxy: the proxy itself.
    CPPUNIT_ASSERT_EQUAL(std::string("10.1.2.3"),
                         proxies.clientAddress(makeRequest("GET", "/", {}, "10.1.2.3")));
  }

  void testChainIsReadFromTheRight() {
    const TrustedProxies proxies({"10.0.0.0/8", "172.16.0.0/12"});
    // The client forged "1.1.1.1" on the left; the trusted hops vouch only for 198.51.100.7.
    CPPUNIT_ASSERT_EQUAL(
        std::string("198.51.100.7"),
        proxies.clientAddress(xff("10.0.0.1", "1.1.1.1, 198.51.100.7, 172.16.0.9")));
    // Two header lines are one list.
    auto request = makeRequest(
        "GET", "/", {{"X-Forwarded-For", "1.1.1.1"}, {"x-forwarded-for", "198.51.100.8"}},
        "10.0.0.1");
    CPPUNIT_ASSERT_EQUAL(std::string("198.51.100.8"), proxies.clientAddress(request));
    // Every hop trusted: the leftmost.
    CPPUNIT_ASSERT_EQUAL(std::string("10.9.9.9"),
                         proxies.clientAddress(xff("10.0.0.1", "10.9.9.9, 172.16.0.1")));
  }

  void testMalformedEntriesStopTheWalk() {
    const TrustedProxies proxies({"10.0.0.0/8"});
    CPPUNIT_ASSERT_EQUAL(std::string("10.0.0.1"),
                         proxies.clientAddress(xff("10.0.0.1", "203.0.113.5, not-an-ip")));
    CPPUNIT_ASSERT_EQUAL(std::string("10.0.0.1"), proxies.clientAddress(xff("10.0.0.1", "")));
  }

  void testCidrMatching() {
    const TrustedProxies proxies({"192.168.1.0/24", "::1/128", "203.0.113.9"});
    Poco::Net::IPAddress a;
    CPPUNIT_ASSERT(proxies.contains(Poco::Net::IPAddress("192.168.1.200")));
    CPPUNIT_ASSERT(!proxies.contains(Poco::Net::IPAddress("192.168.2.1")));
    CPPUNIT_ASSERT(proxies.contains(Poco::Net::IPAddress("::1")));
    CPPUNIT_ASSERT(proxies.contains(Poco::Net::IPAddress("203.0.113.9")));
    CPPUNIT_ASSERT(!proxies.contains(Poco::Net::IPAddress("203.0.113.8")));
    CPPUNIT_ASSERT_THROW(TrustedProxies({"10.0.0.0/33"}), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(TrustedProxies({"nonsense/8"}), std::invalid_argument);
  }

  void testMappedIpv4IsIpv4() {
    // A dual-stack listener reports IPv4 peers as ::ffff:a.b.c.d: the IPv4 proxy list
    // must still trust them, and the client is named as IPv4.
    const TrustedProxies proxies({"10.0.0.0/8"});
    CPPUNIT_ASSERT_EQUAL(std::string("203.0.113.5"),
                         proxies.clientAddress(xff("::ffff:10.1.2.3", "203.0.113.5")));
    CPPUNIT_ASSERT_EQUAL(std::string("203.0.113.5"),
                         proxies.clientAddress(xff("10.1.2.3", "::ffff:203.0.113.5")));
    CPPUNIT_ASSERT_EQUAL(std::string("192.0.2.10"),
                         TrustedProxies({}).clientAddress(xff("::ffff:192.0.2.10", "1.1.1.1")));
    // A mapped CIDR covers the IPv4 range it maps.
    const TrustedProxies mapped({"::ffff:10.0.0.0/104"});
    CPPUNIT_ASSERT(mapped.contains(Poco::Net::IPAddress("10.200.0.1")));
    CPPUNIT_ASSERT(!mapped.contains(Poco::Net::IPAddress("11.0.0.1")));
  }

  void testRateLimitKeys() {
    using http::rateLimitKey;
    CPPUNIT_ASSERT_EQUAL(std::string("192.0.2.10"), rateLimitKey("192.0.2.10"));
    CPPUNIT_ASSERT_EQUAL(std::string("192.0.2.10"), rateLimitKey("::ffff:192.0.2.10"));
    // Every address of one /64 shares a key; the next /64 has its own.
    CPPUNIT_ASSERT_EQUAL(std::string("2001:db8:1:2::/64"), rateLimitKey("2001:db8:1:2::1"));
    CPPUNIT_ASSERT_EQUAL(std::string("2001:db8:1:2::/64"),
                         rateLimitKey("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    CPPUNIT_ASSERT_EQUAL(std::string("2001:db8:1:3::/64"), rateLimitKey("2001:db8:1:3::1"));
    CPPUNIT_ASSERT_EQUAL(std::string("::/64"), rateLimitKey("::1"));
    CPPUNIT_ASSERT_EQUAL(std::string("not-an-ip"), rateLimitKey("not-an-ip"));
  }

  void testOneKeyPerAddressWhateverItsSpelling() {
    using http::rateLimitKey;
    // Spellings a socket never reports, but a forwarded header may carry: the same client
    // must not get a second budget by writing its address another way.
    CPPUNIT_ASSERT_EQUAL(rateLimitKey("2001:db8:1:2::1"), rateLimitKey("2001:DB8:1:2:0:0:0:1"));
    CPPUNIT_ASSERT_EQUAL(rateLimitKey("192.0.2.10"), rateLimitKey("::FFFF:192.0.2.10"));
    CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1"), rateLimitKey("127.1"));
    CPPUNIT_ASSERT_EQUAL(std::string("fe80::/64"), rateLimitKey("fe80::1%1"));
  }

 private:
  static http::Request xff(const std::string& peer, const std::string& header) {
    return makeRequest("GET", "/", {{"X-Forwarded-For", header}}, peer);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ClientAddressTest);
