#include "Compression.hpp"
#include "DecodeInSteps.hpp"
#include "net/ZlibDecoder.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::net::ContentDecoder;
using skinpulse::net::ZlibDecoder;
using Result = ContentDecoder::Result;
using testdecode::decodeInSteps;

namespace {

std::string sampleText() {
  std::string text;
  for (int i = 0; i < 2000; ++i)
    text += "{\"market_hash_name\":\"AK-47 | Redline\",\"n\":" + std::to_string(i) + "}";
  return text;
}

}  // namespace

class ZlibDecoderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ZlibDecoderTest);
  CPPUNIT_TEST(testGzipInOnePiece);
  CPPUNIT_TEST(testGzipByteByByte);
  CPPUNIT_TEST(testDeflateZlibWrapped);
  CPPUNIT_TEST(testDeflateRawByteByByte);
  CPPUNIT_TEST(testGzipLabelAcceptsZlibStream);
  CPPUNIT_TEST(testCorruptInputRejected);
  CPPUNIT_TEST(testTruncatedStreamRejectedAtFinish);
  CPPUNIT_TEST(testTrailingBytesIgnored);
  CPPUNIT_TEST(testEmptyBodyAccepted);
  CPPUNIT_TEST(testLimitIsExact);
  CPPUNIT_TEST(testBombStopsAtLimitWithoutGrowing);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testGzipInOnePiece() {
    const std::string text = sampleText();
    ZlibDecoder decoder(ZlibDecoder::Format::kGzip);
    std::string out;
    CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::gzip(text), 1u << 20, out) == Result::kOk);
    CPPUNIT_ASSERT(out == text);
  }

  void testGzipByteByByte() {
    const std::string text = sampleText();
    ZlibDecoder decoder(ZlibDecoder::Format::kGzip);
    std::string out;
    CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::gzip(text), 1, out) == Result::kOk);
    CPPUNIT_ASSERT(out == text);
  }

  void testDeflateZlibWrapped() {
    const std::string text = sampleText();
    ZlibDecoder decoder(ZlibDecoder::Format::kDeflate);
    std::string out;
    CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::zlib(text), 1, out) == Result::kOk);
    CPPUNIT_ASSERT(out == text);
  }

  void testDeflateRawByteByByte() {
    const std::string text = sampleText();
    ZlibDecoder decoder(ZlibDecoder::Format::kDeflate);
    std::string out;
    CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::rawDeflate(text), 1, out) == Result::kOk);
    CPPUNIT_ASSERT(out == text);
  }

  void testGzipLabelAcceptsZlibStream() {
    ZlibDecoder decoder(ZlibDecoder::Format::kGzip);
    std::string out;
    CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::zlib("hello"), 7, out) == Result::kOk);
    CPPUNIT_ASSERT_EQUAL(std::string("hello"), out);
  }

  void testCorruptInputRejected() {
    ZlibDecoder decoder(ZlibDecoder::Format::kGzip);
    std::string out;
    CPPUNIT_ASSERT(decoder.decode("this is not gzip at all", out, 1024) == Result::kCorrupt);
  }

  void testTruncatedStreamRejectedAtFinish() {
    const std::string encoded = testcompress::gzip(sampleText());
    ZlibDecoder decoder(ZlibDecoder::Format::kGzip);
    std::string out;
    CPPUNIT_ASSERT(decoder.decode(std::string_view(encoded).substr(0, encoded.size() / 2), out,
                                  1u << 30) == Result::kOk);
    CPPUNIT_ASSERT(decoder.finish() == Result::kCorrupt);
  }

  void testTrailingBytesIgnored() {
    ZlibDecoder decoder(ZlibDecoder::Format::kGzip);
    std::string out;
    CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::gzip("abc") + "\n\n", 64, out) ==
                   Result::kOk);
    CPPUNIT_ASSERT_EQUAL(std::string("abc"), out);
  }

  void testEmptyBodyAccepted() {
    ZlibDecoder decoder(ZlibDecoder::Format::kDeflate);
    CPPUNIT_ASSERT(decoder.finish() == Result::kOk);
  }

  void testLimitIsExact() {
    const std::string text(1000, 'a');
    {
      ZlibDecoder decoder(ZlibDecoder::Format::kGzip);
      std::string out;
      CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::gzip(text), 100, out, 1000) ==
                     Result::kOk);
      CPPUNIT_ASSERT_EQUAL(std::size_t{1000}, out.size());
    }
    ZlibDecoder decoder(ZlibDecoder::Format::kGzip);
    std::string out;
    CPPUNIT_ASSERT(decodeInSteps(decoder, testcompress::gzip(text), 100, out, 999) ==
                   Result::kTooLarge);
    CPPUNIT_ASSERT(out.size() <= 999);
  }

  void testBombStopsAtLimitWithoutGrowing() {
    // 100 MB of zeros in about 100 KB: decoding must stop at the 1 MB limit.
    const std::string bomb = testcompress::gzipZeros(100u * 1024 * 1024);
    CPPUNIT_ASSERT(bomb.size() < 200u * 1024);
    ZlibDecoder decoder(ZlibDecoder::Format::kGzip);
    std::string out;
    const std::size_t limit = 1024 * 1024;
    CPPUNIT_ASSERT(decodeInSteps(decoder, bomb, 16 * 1024, out, limit) == Result::kTooLarge);
    CPPUNIT_ASSERT(out.size() <= limit);
    CPPUNIT_ASSERT(out.capacity() <= 2 * limit);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ZlibDecoderTest);
