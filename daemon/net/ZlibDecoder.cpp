#include "net/ZlibDecoder.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace skinpulse::net {

namespace {

constexpr int kMaxWindowBits = 15;
constexpr int kDetectGzipOrZlib = 32;  // added to the window bits: zlib sniffs the header
constexpr std::size_t kOutputChunk = 16 * 1024;

/// RFC 1950: method 8 (deflate) in the low nibble of the first byte, and the first two
/// bytes as a big-endian number divisible by 31. A raw deflate stream rarely passes both.
bool looksLikeZlibHeader(unsigned char cmf, unsigned char flg) {
  return (cmf & 0x0F) == 8 && ((cmf << 8) | flg) % 31 == 0;
}

}  // namespace

ZlibDecoder::ZlibDecoder(Format format) : format_(format) {
  if (format_ == Format::kGzip) start(kMaxWindowBits + kDetectGzipOrZlib);
}

ZlibDecoder::~ZlibDecoder() {
  if (started_) inflateEnd(&stream_);
}

bool ZlibDecoder::start(int window_bits) {
  started_ = inflateInit2(&stream_, window_bits) == Z_OK;
  return started_;
}

ContentDecoder::Result ZlibDecoder::decodeTo(std::string_view input, const Emit& emit) {
  if (input.empty() || ended_) return Result::kOk;
  saw_input_ = true;
  if (format_ == Format::kDeflate && !started_) {
    // The wrapper is decided on the first two bytes, which may arrive in separate pieces.
    const std::size_t take = std::min(input.size(), 2 - header_.size());
    header_.append(input.substr(0, take));
    input.remove_prefix(take);
    if (header_.size() < 2) return Result::kOk;
    const bool zlib = looksLikeZlibHeader(static_cast<unsigned char>(header_[0]),
                                          static_cast<unsigned char>(header_[1]));
    if (!start(zlib ? kMaxWindowBits : -kMaxWindowBits)) return Result::kCorrupt;
    std::string header;
    header.swap(header_);
    const Result result = inflateSome(header, emit);
    if (result != Result::kOk) return result;
  }
  if (!started_) return Result::kCorrupt;
  return inflateSome(input, emit);
}

ContentDecoder::Result ZlibDecoder::inflateSome(std::string_view input, const Emit& emit) {
  std::array<unsigned char, kOutputChunk> buffer;
  while (!input.empty() && !ended_) {
    const auto piece = std::min<std::size_t>(input.size(), std::numeric_limits<uInt>::max());
    // zlib's API is not const-correct; it never writes through next_in.
    stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    stream_.avail_in = static_cast<uInt>(piece);
    do {
      stream_.next_out = buffer.data();
      stream_.avail_out = static_cast<uInt>(buffer.size());
      const int rc = inflate(&stream_, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) return Result::kCorrupt;
      const std::size_t produced = buffer.size() - stream_.avail_out;
      const std::string_view decoded(reinterpret_cast<const char*>(buffer.data()), produced);
      if (!decoded.empty() && !emit(decoded)) return Result::kTooLarge;
      if (rc == Z_STREAM_END) ended_ = true;
      if (rc == Z_BUF_ERROR) break;  // no progress possible: everything given was consumed
    } while (!ended_ && (stream_.avail_in > 0 || stream_.avail_out == 0));
    input.remove_prefix(piece - stream_.avail_in);
    if (!ended_ && stream_.avail_in > 0) return Result::kCorrupt;
  }
  return Result::kOk;
}

ContentDecoder::Result ZlibDecoder::finish() {
  // An empty body is taken as empty whatever its label; anything else must be complete.
  return (ended_ || !saw_input_) ? Result::kOk : Result::kCorrupt;
}

}  // namespace skinpulse::net
