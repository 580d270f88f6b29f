#include "common/ValueParsers.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using namespace skinpulse::common;

class ValueParsersTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ValueParsersTest);
  CPPUNIT_TEST(listenAddressIpv4AndLocalhost);
  CPPUNIT_TEST(listenAddressIpv6InBrackets);
  CPPUNIT_TEST(listenAddressRefusals);
  CPPUNIT_TEST_SUITE_END();

  using Parsed = std::pair<std::string, std::uint16_t>;

 public:
  void listenAddressIpv4AndLocalhost() {
    CPPUNIT_ASSERT(parseListenAddress("127.0.0.1:8080") == Parsed("127.0.0.1", 8080));
    CPPUNIT_ASSERT(parseListenAddress("0.0.0.0:0") == Parsed("0.0.0.0", 0));
    CPPUNIT_ASSERT(parseListenAddress("localhost:9108") == Parsed("localhost", 9108));
  }

  void listenAddressIpv6InBrackets() {
    // "[::]" is the dual-stack wildcard; Poco's parser had refused it (issue 31).
    CPPUNIT_ASSERT(parseListenAddress("[::]:8080") == Parsed("::", 8080));
    CPPUNIT_ASSERT(parseListenAddress("[::1]:8080") == Parsed("::1", 8080));
    CPPUNIT_ASSERT(parseListenAddress("[2001:db8::1]:80") == Parsed("2001:db8::1", 80));
    CPPUNIT_ASSERT(parseListenAddress("[::ffff:127.0.0.1]:1") == Parsed("::ffff:127.0.0.1", 1));
  }

  void listenAddressRefusals() {
    for (const char* text :
         {"", ":8080", "8080", "[::]", "[::]8080", "[::]:", "[::]:65536", "[::]:-1", "[::]:+80",
          "::1:8080", "[127.0.0.1]:80", "[zz::1]:80", "[::1:80", "127.0.0.1", "127.0.0:80",
          "host.example:80", "127.0.0.1:80:80", "[fe80::1%eth0]:80", "127.0.0.1: 80"}) {
      CPPUNIT_ASSERT_MESSAGE(text, !parseListenAddress(text));
    }
    // A NUL inside the host must not be cut off by the address parser (fuzz finding).
    CPPUNIT_ASSERT(!parseListenAddress(std::string_view("[::f\0x]:1", 9)));
    CPPUNIT_ASSERT(!parseListenAddress(std::string_view("127.0.0.1\0x:80", 14)));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ValueParsersTest);
