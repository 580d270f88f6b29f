#include "Compression.hpp"
#include "DecodeInSteps.hpp"
#include "net/BrotliDecoder.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::net::BrotliDecoder;
using Result = skinpulse::net::ContentDecoder::Result;
using testdecode::decodeInSteps;

namespace {

std::string sampleText() {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "\u2605 Karambit | Fade #" + std::to_string(i) + "\n";
  return text;
}

}  // namespace

class BrotliDecoderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BrotliDecoderTest);
  CPPUNIT_TEST(testInOnePiece);
  CPPUNIT_TEST(testByteByByte);
  CPPUNIT_TEST(testCorruptInputRejected);
  CPPUNIT_TEST(testTruncatedStreamRejectedAtFinish);
  CPPUNIT_TEST(testEmptyBodyAccepted);
  CPPUNIT_TEST(testBombStopsAtLimitWithoutGrowing);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testInOnePiece() {
    const std::string text = sampleText();
    BrotliDecoder decoder;
    std::string out;
    CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::brotli(text), 1u << 20, out) ==
                   Result::kOk);
    CPPUNIT_ASSERT(out == text);
  }

  void testByteByByte() {
    const std::string text = sampleText();
    BrotliDecoder decoder;
    std::string out;
    CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::brotli(text), 1, out) == Result::kOk);
    CPPUNIT_ASSERT(out == text);
  }

  void testCorruptInputRejected() {
    BrotliDecoder decoder;
    std::string out;
    const Result result = decodeInSteps(decoder, std::string(64, '\xff'), 64, out);
    CPPUNIT_ASSERT(result == Result::kCorrupt);
  }

  void testTruncatedStreamRejectedAtFinish() {
    const std::string encoded = testcompress::brotli(sampleText());
    BrotliDecoder decoder;
    std::string out;
    CPPUNIT_ASSERT(decoder.decode(std::string_view(encoded).substr(0, encoded.size() / 2), out,
                                  1u << 30) == Result::kOk);
    CPPUNIT_ASSERT(decoder.finish() == Result::kCorrupt);
  }

  void testEmptyBodyAccepted() {
    BrotliDecoder decoder;
    CPPUNIT_ASSERT(decoder.finish() == Result::kOk);
  }

  void testBombStopsAtLimitWithoutGrowing() {
    const std::string bomb = testcompress::brotliZeros(100u * 1024 * 1024);
    CPPUNIT_ASSERT(bomb.size() < 100u * 1024);
    BrotliDecoder decoder;
    std::string out;
    const std::size_t limit = 1024 * 1024;
    CPPUNIT_ASSERT(decodeInSteps(decoder, bomb, 16 * 1024, out, limit) == Result::kTooLarge);
    CPPUNIT_ASSERT(out.size() <= limit);
    CPPUNIT_ASSERT(out.capacity() <= 2 * limit);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BrotliDecoderTest);
