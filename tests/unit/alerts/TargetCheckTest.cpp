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
};

CPPUNIT_TEST_SUITE_REGISTRATION(TargetCheckTest);
