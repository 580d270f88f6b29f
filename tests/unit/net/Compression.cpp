#include "Compression.hpp"

#include <algorithm>
#include <brotli/encode.h>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>
#include <zlib.h>

namespace testcompress {

namespace {

/// Deflates what `next` supplies (it returns an empty view at the end).
std::string deflateStream(int window_bits, const std::function<std::string_view()>& next) {
  z_stream stream{};
  if (deflateInit2(&stream, 9, Z_DEFLATED, window_bits, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2");
  }
  std::string out;
  std::vector<unsigned char> buffer(64 * 1024);
  for (;;) {
    const std::string_view piece = next();
    const int flush = piece.empty() ? Z_FINISH : Z_NO_FLUSH;
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(piece.data()));
    stream.avail_in = static_cast<uInt>(piece.size());
    int rc = Z_OK;
    do {
      stream.next_out = buffer.data();
      stream.avail_out = static_cast<uInt>(buffer.size());
      rc = deflate(&stream, flush);
      out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - stream.avail_out);
    } while (stream.avail_out == 0);
    if (flush == Z_FINISH) {
      deflateEnd(&stream);
      if (rc != Z_STREAM_END) throw std::runtime_error("deflate did not finish");
      return out;
    }
  }
}

std::string deflateAll(int window_bits, std::string_view data) {
  bool given = false;
  return deflateStream(window_bits, [&]() -> std::string_view {
    if (given || data.empty()) return {};
    given = true;
    return data;
  });
}

}  // namespace

std::string gzip(std::string_view data) { return deflateAll(15 + 16, data); }
std::string zlib(std::string_view data) { return deflateAll(15, data); }
std::string rawDeflate(std::string_view data) { return deflateAll(-15, data); }

std::string brotli(std::string_view data) {
  std::size_t size = BrotliEncoderMaxCompressedSize(data.size());
  std::string out(size, '\0');
  if (!BrotliEncoderCompress(BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
                             data.size(), reinterpret_cast<const std::uint8_t*>(data.data()), &size,
                             reinterpret_cast<std::uint8_t*>(out.data()))) {
    throw std::runtime_error("BrotliEncoderCompress");
  }
  out.resize(size);
  return out;
}

std::string gzipZeros(std::size_t count) {
  const std::string zeros(1024 * 1024, '\0');
  std::size_t left = count;
  return deflateStream(15 + 16, [&]() -> std::string_view {
    const std::size_t piece = std::min(left, zeros.size());
    left -= piece;
    return std::string_view(zeros.data(), piece);
  });
}

std::string brotliZeros(std::size_t count) {
  BrotliEncoderState* state = BrotliEncoderCreateInstance(nullptr, nullptr, nullptr);
  BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, 5);
  const std::vector<std::uint8_t> zeros(1024 * 1024, 0);
  std::vector<std::uint8_t> buffer(64 * 1024);
  std::string out;
  std::size_t left = count;
  for (;;) {
    const std::size_t piece = std::min(left, zeros.size());
    left -= piece;
    const BrotliEncoderOperation op =
        left == 0 ? BROTLI_OPERATION_FINISH : BROTLI_OPERATION_PROCESS;
    std::size_t available_in = piece;
    const std::uint8_t* next_in = zeros.data();
    do {
      std::size_t available_out = buffer.size();
      std::uint8_t* next_out = buffer.data();
      if (!BrotliEncoderCompressStream(state, op, &available_in, &next_in, &available_out,
                                       &next_out, nullptr)) {
        BrotliEncoderDestroyInstance(state);
        throw std::runtime_error("BrotliEncoderCompressStream");
      }
      out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - available_out);
    } while (available_in > 0 || BrotliEncoderHasMoreOutput(state));
    if (op == BROTLI_OPERATION_FINISH && BrotliEncoderIsFinished(state)) break;
  }
  BrotliEncoderDestroyInstance(state);
  return out;
}

}  // namespace testcompress
