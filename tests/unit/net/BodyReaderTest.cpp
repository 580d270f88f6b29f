#include "net/BodyReader.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <functional>
#include <limits>

using skinpulse::net::BodyLimits;
using skinpulse::net::BodyStatus;
using skinpulse::net::encodedLimitFor;
using skinpulse::net::makeContentDecoder;
using skinpulse::net::readBody;
using skinpulse::net::streamBody;

namespace {

BodyLimits limits(std::size_t encoded, std::size_t decoded) {
  return BodyLimits{encoded, decoded, std::chrono::steady_clock::now() + std::chrono::hours(1)};
}

/// A source that hands out `data` in pieces of at most `step` bytes, counting what it gave.
struct Source {
  std::string data;
  std::size_t step = 1000;
  std::size_t given = 0;
  std::size_t operator()(char* out, std::size_t n) {
    const std::size_t count = std::min({n, step, data.size() - given});
    data.copy(out, count, given);
    given += count;
    return count;
  }
};

}  // namespace

class BodyReaderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BodyReaderTest);
  CPPUNIT_TEST(testReadsWholeStream);
  CPPUNIT_TEST(testStopsAtEncodedCap);
  CPPUNIT_TEST(testPassedDeadlineIsTimeout);
  CPPUNIT_TEST(testCorruptEncoding);
  CPPUNIT_TEST(testEncodedLimit);
  CPPUNIT_TEST(testStreamHandsOverSmallPiecesUpToTheCap);
  CPPUNIT_TEST(testStreamStopsWhenTheConsumerSaysSo);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testReadsWholeStream() {
    Source source{std::string(100000, 'x')};
    std::string out;
    auto decoder = makeContentDecoder("");
    CPPUNIT_ASSERT(readBody(std::ref(source), *decoder, limits(100000, 100000), out) ==
                   BodyStatus::kOk);
    CPPUNIT_ASSERT(out == source.data);
  }

  void testStopsAtEncodedCap() {
    Source source{std::string(100000, 'x')};
    std::string out;
    auto decoder = makeContentDecoder("");
    CPPUNIT_ASSERT(readBody(std::ref(source), *decoder, limits(50000, 1000000), out) ==
                   BodyStatus::kTooLarge);
    // It stops at the first piece past the cap, never reading on to the end.
    CPPUNIT_ASSERT_EQUAL(std::size_t{51000}, source.given);
  }

  void testStreamHandsOverSmallPiecesUpToTheCap() {
    Source source{std::string(200000, 'x'), 100000};
    auto decoder = makeContentDecoder("");
    std::size_t total = 0;
    std::size_t largest = 0;
    const auto take = [&](std::string_view piece) {
      total += piece.size();
      largest = std::max(largest, piece.size());
      return true;
    };
    CPPUNIT_ASSERT(streamBody(std::ref(source), *decoder, limits(200000, 200000), take) ==
                   BodyStatus::kOk);
    CPPUNIT_ASSERT_EQUAL(std::size_t{200000}, total);
    CPPUNIT_ASSERT(largest <= 16u * 1024);
    // One byte under the body: the piece that would pass the cap is not handed over.
    Source again{std::string(200000, 'x'), 100000};
    auto fresh = makeContentDecoder("");
    total = 0;
    CPPUNIT_ASSERT(streamBody(std::ref(again), *fresh, limits(300000, 199999), take) ==
                   BodyStatus::kTooLarge);
    CPPUNIT_ASSERT(total <= 199999);
  }

  void testStreamStopsWhenTheConsumerSaysSo() {
    Source source{std::string(100000, 'x')};
    auto decoder = makeContentDecoder("");
    int pieces = 0;
    const auto take = [&pieces](std::string_view) { return ++pieces < 3; };
    CPPUNIT_ASSERT(streamBody(std::ref(source), *decoder, limits(100000, 100000), take) ==
                   BodyStatus::kStopped);
    CPPUNIT_ASSERT_EQUAL(3, pieces);
    CPPUNIT_ASSERT(source.given < source.data.size());
  }

  void testPassedDeadlineIsTimeout() {
    Source source{"abc"};
    std::string out;
    auto decoder = makeContentDecoder("");
    const BodyLimits past{10, 10, std::chrono::steady_clock::now() - std::chrono::seconds(1)};
    CPPUNIT_ASSERT(readBody(std::ref(source), *decoder, past, out) == BodyStatus::kTimeout);
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, source.given);
  }

  void testCorruptEncoding() {
    Source source{"definitely not gzip"};
    std::string out;
    auto decoder = makeContentDecoder("gzip");
    CPPUNIT_ASSERT(readBody(std::ref(source), *decoder, limits(100, 100), out) ==
                   BodyStatus::kCorrupt);
  }

  void testEncodedLimit() {
    CPPUNIT_ASSERT_EQUAL(std::size_t{1000}, encodedLimitFor(1000, true));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1024 * 1024 + 4096 + 1024},
                         encodedLimitFor(1024 * 1024, false));
    const std::size_t most = std::numeric_limits<std::size_t>::max();
    CPPUNIT_ASSERT_EQUAL(most, encodedLimitFor(most - 1, false));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BodyReaderTest);
