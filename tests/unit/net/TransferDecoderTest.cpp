#include "net/TransferDecoder.hpp"

#include <Poco/Net/NetException.h>
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>

using skinpulse::net::ConnectionReader;
using skinpulse::net::TransferDecoder;
using Framing = TransferDecoder::Framing;

namespace {

/// A connection that delivers `wire` at most `step` bytes per receive, then its end.
ConnectionReader connectionOf(std::string wire, std::size_t step = 7) {
  auto position = std::make_shared<std::size_t>(0);
  auto data = std::make_shared<std::string>(std::move(wire));
  return ConnectionReader(
      [data, position, step](char* out, std::size_t n) {
        const std::size_t count = std::min({n, step, data->size() - *position});
        data->copy(out, count, *position);
        *position += count;
        return count;
      },
      "");
}

std::string readAll(TransferDecoder& transfer, std::size_t piece = 5) {
  std::string body;
  std::string buffer(piece, '\0');
  for (std::size_t n; (n = transfer.read(buffer.data(), buffer.size())) > 0;) {
    body.append(buffer, 0, n);
  }
  return body;
}

bool fails(const std::string& wire, Framing framing, std::uint64_t length = 0) {
  auto connection = connectionOf(wire);
  TransferDecoder transfer(connection, framing, length);
  try {
    readAll(transfer);
  } catch (const Poco::Net::MessageException&) {
    return true;
  }
  return false;
}

}  // namespace

class TransferDecoderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TransferDecoderTest);
  CPPUNIT_TEST(testBufferedBytesComeFirst);
  CPPUNIT_TEST(testLengthStopsAtLength);
  CPPUNIT_TEST(testLengthZero);
  CPPUNIT_TEST(testShortLengthFails);
  CPPUNIT_TEST(testUntilClose);
  CPPUNIT_TEST(testChunked);
  CPPUNIT_TEST(testChunkedWithExtensionsTrailersAndBareLf);
  CPPUNIT_TEST(testChunkedTruncatedFails);
  CPPUNIT_TEST(testChunkedMalformedFails);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testBufferedBytesComeFirst() {
    ConnectionReader connection([](char*, std::size_t) { return std::size_t{0}; }, "abc");
    TransferDecoder transfer(connection, Framing::kUntilClose);
    CPPUNIT_ASSERT_EQUAL(std::string("abc"), readAll(transfer));
  }

  void testLengthStopsAtLength() {
    auto connection = connectionOf("hello world and more");
    TransferDecoder transfer(connection, Framing::kLength, 11);
    CPPUNIT_ASSERT_EQUAL(std::string("hello world"), readAll(transfer));
  }

  void testLengthZero() {
    auto connection = connectionOf("ignored");
    TransferDecoder transfer(connection, Framing::kLength, 0);
    CPPUNIT_ASSERT_EQUAL(std::string(), readAll(transfer));
  }

  void testShortLengthFails() { CPPUNIT_ASSERT(fails("only ten b", Framing::kLength, 100)); }

  void testUntilClose() {
    auto connection = connectionOf(std::string(100000, 'z'));
    TransferDecoder transfer(connection, Framing::kUntilClose);
    CPPUNIT_ASSERT_EQUAL(std::size_t{100000}, readAll(transfer, 20000).size());
  }

  void testChunked() {
    auto connection = connectionOf("5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\nnext response");
    TransferDecoder transfer(connection, Framing::kChunked);
    CPPUNIT_ASSERT_EQUAL(std::string("hello, world"), readAll(transfer, 3));
    char byte = 0;
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, transfer.read(&byte, 1));  // stays at the end
  }

  void testChunkedWithExtensionsTrailersAndBareLf() {
    auto connection = connectionOf("A ; name=value\r\n0123456789\n0\r\nX-Trailer: 1\r\n\r\n");
    TransferDecoder transfer(connection, Framing::kChunked);
    CPPUNIT_ASSERT_EQUAL(std::string("0123456789"), readAll(transfer));
  }

  void testChunkedTruncatedFails() {
    CPPUNIT_ASSERT(fails("a\r\n0123456789\r\n64\r\nshort", Framing::kChunked));
    CPPUNIT_ASSERT(fails("a\r\n0123456789\r\n", Framing::kChunked));    // no last chunk
    CPPUNIT_ASSERT(fails("5\r\nhello", Framing::kChunked));             // no CRLF after data
    CPPUNIT_ASSERT(fails("0\r\nX-Trailer: 1\r\n", Framing::kChunked));  // no end of trailers
    CPPUNIT_ASSERT(fails("", Framing::kChunked));
  }

  void testChunkedMalformedFails() {
    CPPUNIT_ASSERT(fails("zz\r\nhello\r\n0\r\n\r\n", Framing::kChunked));
    CPPUNIT_ASSERT(fails("\r\nhello\r\n0\r\n\r\n", Framing::kChunked));
    CPPUNIT_ASSERT(fails("3\r\nhello\r\n0\r\n\r\n", Framing::kChunked));  // data overruns size
    CPPUNIT_ASSERT(fails("1000000000000000\r\n", Framing::kChunked));     // 16 hex digits
    CPPUNIT_ASSERT(fails(std::string(5000, '1') + "\r\n", Framing::kChunked));
    std::string many_trailers = "0\r\n";
    for (int i = 0; i < 100; ++i) many_trailers += "X: 1\r\n";
    CPPUNIT_ASSERT(fails(many_trailers + "\r\n", Framing::kChunked));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TransferDecoderTest);
