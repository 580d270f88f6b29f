// LooseIPv4: the forms inet_aton reads as IPv4 addresses, and the ones it does not.

#include "alerts/LooseIPv4.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <arpa/inet.h>
#include <string>

using namespace skinpulse::alerts;

namespace {

// What the C library itself makes of `text` (the resolver's reading), host byte order.
std::optional<std::uint32_t> libc(const std::string& text) {
  in_addr address{};
  if (::inet_aton(text.c_str(), &address) == 0) return std::nullopt;
  return ntohl(address.s_addr);
}

}  // namespace

class LooseIPv4Test : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LooseIPv4Test);
  CPPUNIT_TEST(readsEveryForm);
  CPPUNIT_TEST(refusesNamesAndOutOfRange);
  CPPUNIT_TEST(agreesWithTheCLibrary);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsEveryForm() {
    CPPUNIT_ASSERT_EQUAL(std::uint32_t{0x7f000001}, *parseLooseIPv4("127.0.0.1"));
    CPPUNIT_ASSERT_EQUAL(std::uint32_t{0x7f000001}, *parseLooseIPv4("127.1"));
    CPPUNIT_ASSERT_EQUAL(std::uint32_t{0x7f000001}, *parseLooseIPv4("0x7f.1"));
    CPPUNIT_ASSERT_EQUAL(std::uint32_t{0x7f000001}, *parseLooseIPv4("2130706433"));
    CPPUNIT_ASSERT_EQUAL(std::uint32_t{0x7f000001}, *parseLooseIPv4("0177.0.0.01"));
    CPPUNIT_ASSERT_EQUAL(std::uint32_t{0x7f000001}, *parseLooseIPv4("127.0.1"));
    CPPUNIT_ASSERT_EQUAL(std::uint32_t{0}, *parseLooseIPv4("0"));
    CPPUNIT_ASSERT_EQUAL(std::uint32_t{0xffffffff}, *parseLooseIPv4("0xffffffff"));
  }

  void refusesNamesAndOutOfRange() {
    CPPUNIT_ASSERT(!parseLooseIPv4(""));
    CPPUNIT_ASSERT(!parseLooseIPv4("example.com"));
    CPPUNIT_ASSERT(!parseLooseIPv4("1.2.3.4.5"));
    CPPUNIT_ASSERT(!parseLooseIPv4("256.1.1.1"));
    CPPUNIT_ASSERT(!parseLooseIPv4("1.2.3.256"));
    CPPUNIT_ASSERT(!parseLooseIPv4("1.2.65536"));
    CPPUNIT_ASSERT(!parseLooseIPv4("4294967296"));
    CPPUNIT_ASSERT(!parseLooseIPv4("08"));
    CPPUNIT_ASSERT(!parseLooseIPv4("1..2"));
    CPPUNIT_ASSERT(!parseLooseIPv4("1.2."));
    CPPUNIT_ASSERT(!parseLooseIPv4("::1"));
    CPPUNIT_ASSERT(!parseLooseIPv4("-1"));
  }

  void agreesWithTheCLibrary() {
    for (const std::string text : {"0",
                                   "00",
                                   "0x",
                                   "0x0",
                                   "1",
                                   "127.1",
                                   "0x7f.1",
                                   "0X7F.0.0.1",
                                   "2130706433",
                                   "017700000001",
                                   "1.2.3",
                                   "255.255.255.255",
                                   "255.255.65535",
                                   "255.16777215",
                                   "4294967295",
                                   "4294967296",
                                   "1.2.3.4.5",
                                   "09",
                                   "0x1g",
                                   "1.",
                                   ".1",
                                   "1..1",
                                   "a",
                                   "1e3",
                                   "99999999999999999999"}) {
      const auto ours = parseLooseIPv4(text);
      const auto theirs = libc(text);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(text, theirs.has_value(), ours.has_value());
      if (ours) CPPUNIT_ASSERT_EQUAL_MESSAGE(text, *theirs, *ours);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LooseIPv4Test);
