#include "net/BodyReader.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <sstream>

using skinpulse::net::BodyLimits;
using skinpulse::net::BodyStatus;
using skinpulse::net::encodedLimitFor;
using skinpulse::net::makeContentDecoder;
using skinpulse::net::readBody;

namespace {

BodyLimits limits(std::size_t encoded, std::size_t decoded) {
  return BodyLimits{encoded, decoded, std::chrono::steady_clock::now() + std::chrono::hours(1)};
}

}  // namespace

class BodyReaderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BodyReaderTest);
  CPPUNIT_TEST(testReadsWholeStream);
  CPPUNIT_TEST(testStopsAtEncodedCap);
  CPPUNIT_TEST(testShortBodyIsTruncated);
  CPPUNIT_TEST(testPassedDeadlineIsTimeout);
  CPPUNIT_TEST(testCorruptEncoding);
  CPPUNIT_TEST(testEncodedLimit);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testReadsWholeStream() {
    const std::string body(100000, 'x');
    std::istringstream in(body);
    std::string out;
    auto decoder = makeContentDecoder("");
    CPPUNIT_ASSERT(readBody(in, *decoder, limits(body.size(), body.size()), body.size(), out) ==
                   BodyStatus::kOk);
    CPPUNIT_ASSERT(out == body);
  }

  void testStopsAtEncodedCap() {
    std::istringstream in(std::string(100000, 'x'));
    std::string out;
    auto decoder = makeContentDecoder("");
    CPPUNIT_ASSERT(readBody(in, *decoder, limits(50000, 1000000), std::nullopt, out) ==
                   BodyStatus::kTooLarge);
    // Read in chunks: it stops within one chunk of the cap, never at the end.
    CPPUNIT_ASSERT(in.tellg() < 100000);
  }

  void testShortBodyIsTruncated() {
    std::istringstream in("only this");
    std::string out;
    auto decoder = makeContentDecoder("");
    CPPUNIT_ASSERT(readBody(in, *decoder, limits(100, 100), 100, out) == BodyStatus::kTruncated);
  }

  void testPassedDeadlineIsTimeout() {
    std::istringstream in("abc");
    std::string out;
    auto decoder = makeContentDecoder("");
    const BodyLimits past{10, 10, std::chrono::steady_clock::now() - std::chrono::seconds(1)};
    CPPUNIT_ASSERT(readBody(in, *decoder, past, std::nullopt, out) == BodyStatus::kTimeout);
  }

  void testCorruptEncoding() {
    std::istringstream in("definitely not gzip");
    std::string out;
    auto decoder = makeContentDecoder("gzip");
    CPPUNIT_ASSERT(readBody(in, *decoder, limits(100, 100), std::nullopt, out) ==
                   BodyStatus::kCorrupt);
  }

  void testEncodedLimit() {
    CPPUNIT_ASSERT_EQUAL(std::size_t{1000}, encodedLimitFor(1000, true));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1024 * 1024 + 4096 + 1024}, encodedLimitFor(1024 * 1024, false));
    const std::size_t most = std::numeric_limits<std::size_t>::max();
    CPPUNIT_ASSERT_EQUAL(most, encodedLimitFor(most - 1, false));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BodyReaderTest);
