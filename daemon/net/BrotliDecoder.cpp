#include "net/BrotliDecoder.hpp"

#include <array>
#include <cstdint>

namespace skinpulse::net {

namespace {
constexpr std::size_t kOutputChunk = 16 * 1024;
}  // namespace

// The decoder's window is at most 16 MB (large windows stay off), so that is also the most
// a hostile stream can make it allocate, whatever the decoded size.
BrotliDecoder::BrotliDecoder() : state_(BrotliDecoderCreateInstance(nullptr, nullptr, nullptr)) {}

BrotliDecoder::~BrotliDecoder() {
  if (state_ != nullptr) BrotliDecoderDestroyInstance(state_);
}

ContentDecoder::Result BrotliDecoder::decodeTo(std::string_view input, const Emit& emit) {
  if (input.empty() || ended_) return Result::kOk;
  saw_input_ = true;
  if (state_ == nullptr) return Result::kCorrupt;
  std::array<std::uint8_t, kOutputChunk> buffer;
  std::size_t available_in = input.size();
  const auto* next_in = reinterpret_cast<const std::uint8_t*>(input.data());
  for (;;) {
    std::size_t available_out = buffer.size();
    std::uint8_t* next_out = buffer.data();
    const BrotliDecoderResult rc = BrotliDecoderDecompressStream(
        state_, &available_in, &next_in, &available_out, &next_out, nullptr);
    if (rc == BROTLI_DECODER_RESULT_ERROR) return Result::kCorrupt;
    const std::string_view decoded(reinterpret_cast<const char*>(buffer.data()),
                                   buffer.size() - available_out);
    if (!decoded.empty() && !emit(decoded)) return Result::kTooLarge;
    if (rc == BROTLI_DECODER_RESULT_SUCCESS) {
      ended_ = true;
      return Result::kOk;
    }
    if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) return Result::kOk;
    // BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: go round with an empty buffer.
  }
}

ContentDecoder::Result BrotliDecoder::finish() {
  return (ended_ || !saw_input_) ? Result::kOk : Result::kCorrupt;
}

}  // namespace skinpulse::net
