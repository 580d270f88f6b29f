#include "net/TransferDecoder.hpp"

#include <Poco/Net/NetException.h>

#include <algorithm>
#include <string>

namespace skinpulse::net {

namespace {

// Bounds on what a hostile server can make us buffer while parsing the framing.
constexpr std::size_t kMaxLine = 4096;      // a chunk-size line with its extensions
constexpr int kMaxTrailers = 64;            // trailer fields after the last chunk
constexpr std::size_t kMaxSizeDigits = 15;  // hex digits of a chunk size: fits in 60 bits

[[noreturn]] void fail(const std::string& what) { throw Poco::Net::MessageException(what); }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::uint64_t parseChunkSize(const std::string& line) {
  // chunk-size [ BWS ";" chunk-ext ]: the extensions are ignored.
  std::size_t end = line.find(';');
  if (end == std::string::npos) end = line.size();
  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
  if (end == 0 || end > kMaxSizeDigits) fail("invalid chunk size");
  std::uint64_t size = 0;
  for (std::size_t i = 0; i < end; ++i) {
    const int digit = hexValue(line[i]);
    if (digit < 0) fail("invalid chunk size");
    size = size * 16 + static_cast<std::uint64_t>(digit);
  }
  return size;
}

}  // namespace

TransferDecoder::TransferDecoder(ConnectionReader& connection, Framing framing,
                                 std::uint64_t length)
    : connection_(connection), framing_(framing), remaining_(length) {
  if (framing_ == Framing::kLength && remaining_ == 0) finished_ = true;
}

std::size_t TransferDecoder::read(char* out, std::size_t n) {
  if (finished_ || n == 0) return 0;
  switch (framing_) {
    case Framing::kUntilClose: {
      const std::size_t count = connection_.read(out, n);
      finished_ = count == 0;
      return count;
    }
    case Framing::kLength: {
      const auto wanted = static_cast<std::size_t>(std::min<std::uint64_t>(n, remaining_));
      const std::size_t count = connection_.read(out, wanted);
      if (count == 0) fail("connection closed before the end of the body");
      remaining_ -= count;
      finished_ = remaining_ == 0;
      return count;
    }
    case Framing::kChunked:
      return readChunked(out, n);
  }
  return 0;
}

std::size_t TransferDecoder::readChunked(char* out, std::size_t n) {
  if (remaining_ == 0) {
    startChunk();
    if (finished_) return 0;
  }
  const auto wanted = static_cast<std::size_t>(std::min<std::uint64_t>(n, remaining_));
  const std::size_t count = connection_.read(out, wanted);
  if (count == 0) fail("connection closed inside a chunk");
  remaining_ -= count;
  if (remaining_ == 0 && !readLine().empty()) fail("chunk data longer than its size");
  return count;
}

void TransferDecoder::startChunk() {
  remaining_ = parseChunkSize(readLine());
  if (remaining_ == 0) {
    skipTrailers();
    finished_ = true;
  }
}

void TransferDecoder::skipTrailers() {
  for (int i = 0; i <= kMaxTrailers; ++i) {
    if (readLine().empty()) return;
  }
  fail("too many trailer fields");
}

std::string TransferDecoder::readLine() {
  std::string line;
  for (;;) {
    const int c = connection_.get();
    if (c < 0) fail("connection closed inside the chunked framing");
    if (c == '\n') break;
    if (line.size() == kMaxLine) fail("chunk framing line too long");
    line.push_back(static_cast<char>(c));
  }
  // CRLF, or a bare LF as lenient parsers (and RFC 9112 §2.2) accept.
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

}  // namespace skinpulse::net
