#include "alerts/TargetCheck.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::alerts;
using Poco::Net::IPAddress;

namespace {

bool isPublic(const std::string& text) { return isPublicAddress(IPAddress(text)); }

}  // namespace

class TargetCheckTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TargetCheckTest);
  CPPUNIT_TEST(publicAddressesPass);
  CPPUNIT_TEST(privateIpv4IsRefused);
  CPPUNIT_TEST(privateIpv6IsRefused);
  CPPUNIT_TEST(literalsAndLocalhostAreRecognised);
  CPPUNIT_TEST(resolvedNamesAreCheckedUnlessAllowed);
  CPPUNIT_TEST(refusalsNeverNameTheResolvedAddress);
  CPPUNIT_TEST(unspecifiedAddressesAreRefused);
  CPPUNIT_TEST(localhostWithATrailingDotIsRefused);
  CPPUNIT_TEST(looseIPv4FormsOfLoopbackAreRefused);
  CPPUNIT_TEST(mappedAndBracketlessIPv6AreRefused);
  CPPUNIT_TEST(publicHostsStillPass);
  CPPUNIT_TEST_SUITE_END();

 public:
  void publicAddressesPass() {
    for (const char* a : {"1.1.1.1", "8.8.8.8", "162.159.135.232", "149.154.167.220",
                          "100.63.255.255", "100.128.0.0", "172.32.0.1", "2606:4700::1111",
                          "2a00:1450:4001::200e", "::ffff:8.8.8.8"}) {
      CPPUNIT_ASSERT_MESSAGE(a, isPublic(a));
    }
  }

  void privateIpv4IsRefused() {
    for (const char* a :
         {"0.0.0.0",     "10.0.0.1",  "10.255.255.255",  "100.64.0.1", "100.127.255.254",
          "127.0.0.1",   "127.1.2.3", "169.254.169.254", "172.16.0.1", "172.31.255.255",
          "192.0.0.8",   "192.0.2.1", "192.168.1.1",     "198.18.0.1", "198.51.100.7",
          "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1",  "255.255.255.255"}) {
      CPPUNIT_ASSERT_MESSAGE(a, !isPublic(a));
    }
  }

  void privateIpv6IsRefused() {
    for (const char* a : {"::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "fec0::1", "ff02::1",
                          "2001:db8::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
                          "64:ff9b::a9fe:a9fe", "2002:c0a8:0101::1", "2001::1", "100::1"}) {
      CPPUNIT_ASSERT_MESSAGE(a, !isPublic(a));
    }
  }

  void literalsAndLocalhostAreRecognised() {
    CPPUNIT_ASSERT(isPrivateHostLiteral("localhost"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("LOCALHOST"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("api.localhost"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("127.0.0.1"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("::1"));
    CPPUNIT_ASSERT(!isPrivateHostLiteral("8.8.8.8"));
    CPPUNIT_ASSERT(!isPrivateHostLiteral("discord.com"));  // a name: checked at delivery
  }

  void resolvedNamesAreCheckedUnlessAllowed() {
    // "localhost" resolves through /etc/hosts, without a network.
    CPPUNIT_ASSERT_THROW(resolveTarget("localhost", 443, false), TargetRefused);
    CPPUNIT_ASSERT_THROW(resolveTarget("127.0.0.1", 443, false), TargetRefused);
    const auto allowed = resolveTarget("127.0.0.1", 8080, true);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, allowed.size());
    CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1:8080"), allowed[0].toString());
    CPPUNIT_ASSERT_THROW(resolveTarget("no-such-host.invalid", 443, true), TargetRefused);
  }

  // Issue 31: the refusal (for the operator's log) names the host, not where it points.
  void refusalsNeverNameTheResolvedAddress() {
    try {
      resolveTarget("localhost", 443, false);
      CPPUNIT_FAIL("localhost was not refused");
    } catch (const TargetRefused& refused) {
      const std::string text = refused.what();
      CPPUNIT_ASSERT(text.find("localhost") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(text, text.find("127.0.0.1") == std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(text, text.find("::1") == std::string::npos);
    }
  }

  // Issue 31: create time refuses what delivery time refuses, in every spelling.
  void unspecifiedAddressesAreRefused() {
    CPPUNIT_ASSERT(isPrivateHostLiteral("0"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("0.0.0.0"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("::"));  // "[::]" with the brackets removed
    CPPUNIT_ASSERT(isPrivateHostLiteral("0x0"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("00"));
  }

  void localhostWithATrailingDotIsRefused() {
    CPPUNIT_ASSERT(isPrivateHostLiteral("localhost"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("localhost."));
    CPPUNIT_ASSERT(isPrivateHostLiteral("LocalHost."));
    CPPUNIT_ASSERT(isPrivateHostLiteral("api.localhost."));
    CPPUNIT_ASSERT(isPrivateHostLiteral("127.0.0.1."));
    CPPUNIT_ASSERT(isPrivateHostLiteral("."));
  }

  void looseIPv4FormsOfLoopbackAreRefused() {
    CPPUNIT_ASSERT(isPrivateHostLiteral("2130706433"));    // 127.0.0.1 as one number
    CPPUNIT_ASSERT(isPrivateHostLiteral("0x7f.1"));        // 127.0.0.1
    CPPUNIT_ASSERT(isPrivateHostLiteral("127.1"));         // 127.0.0.1
    CPPUNIT_ASSERT(isPrivateHostLiteral("0177.0.0.1"));    // octal 127
    CPPUNIT_ASSERT(isPrivateHostLiteral("017700000001"));  // octal, one number
    CPPUNIT_ASSERT(isPrivateHostLiteral("0x7f000001"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("10.1"));           // 10.0.0.1
    CPPUNIT_ASSERT(isPrivateHostLiteral("169.254.43518"));  // 169.254.169.254
    CPPUNIT_ASSERT(isPrivateHostLiteral("3232235521"));     // 192.168.0.1
  }

  void mappedAndBracketlessIPv6AreRefused() {
    CPPUNIT_ASSERT(isPrivateHostLiteral("::ffff:127.0.0.1"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("::ffff:7f00:1"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("::1"));
    CPPUNIT_ASSERT(isPrivateHostLiteral("fe80::1%25eth0"));  // a zone: refused, not parsed
    CPPUNIT_ASSERT(isPrivateHostLiteral("64:ff9b::10.0.0.1"));
  }

  void publicHostsStillPass() {
    CPPUNIT_ASSERT(!isPrivateHostLiteral("hooks.example.com"));
    CPPUNIT_ASSERT(!isPrivateHostLiteral("hooks.example.com."));
    CPPUNIT_ASSERT(!isPrivateHostLiteral("93.184.216.34"));
    CPPUNIT_ASSERT(!isPrivateHostLiteral("1572395042"));  // 93.184.216.34 as one number
    CPPUNIT_ASSERT(!isPrivateHostLiteral("2606:2800:220:1:248:1893:25c8:1946"));
    CPPUNIT_ASSERT(!isPrivateHostLiteral("127.0.0.1.example.com"));
    CPPUNIT_ASSERT(!isPrivateHostLiteral("0x7g.1"));  // not an address: a (bad) name
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TargetCheckTest);
