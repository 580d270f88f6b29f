#include "net/BodyReader.hpp"

#include <array>
#include <limits>
#include <string_view>

namespace skinpulse::net {

namespace {
constexpr std::size_t kReadChunk = 16 * 1024;
}  // namespace

BodyStatus streamBody(const ReadBodyBytes& next, ContentDecoder& decoder, const BodyLimits& limits,
                      const TakeDecoded& take) {
  std::array<char, kReadChunk> buffer;
  std::size_t received = 0;
  std::size_t delivered = 0;
  bool stopped = false;
  const ContentDecoder::Emit emit = [&](std::string_view decoded) {
    if (decoded.size() > limits.max_decoded - delivered) return false;
    delivered += decoded.size();
    if (!take(decoded)) {
      stopped = true;
      return false;
    }
    return true;
  };
  for (;;) {
    if (std::chrono::steady_clock::now() >= limits.deadline) return BodyStatus::kTimeout;
    const std::size_t count = next(buffer.data(), buffer.size());
    if (count == 0) break;
    received += count;
    if (received > limits.max_encoded) return BodyStatus::kTooLarge;
    switch (decoder.decodeTo(std::string_view(buffer.data(), count), emit)) {
      case ContentDecoder::Result::kOk:
        break;
      case ContentDecoder::Result::kTooLarge:
        // The decoders answer kTooLarge whenever emit() said stop; emit knows why.
        return stopped ? BodyStatus::kStopped : BodyStatus::kTooLarge;
      case ContentDecoder::Result::kCorrupt:
        return BodyStatus::kCorrupt;
    }
  }
  return decoder.finish() == ContentDecoder::Result::kOk ? BodyStatus::kOk : BodyStatus::kCorrupt;
}

BodyStatus readBody(const ReadBodyBytes& next, ContentDecoder& decoder, const BodyLimits& limits,
                    std::string& out) {
  return streamBody(next, decoder, limits, [&out](std::string_view decoded) {
    out.append(decoded);
    return true;
  });
}

std::size_t encodedLimitFor(std::size_t max_decoded, bool identity) {
  if (identity) return max_decoded;
  const std::size_t headroom = max_decoded / 256 + 1024;
  const std::size_t most = std::numeric_limits<std::size_t>::max();
  return max_decoded > most - headroom ? most : max_decoded + headroom;
}

}  // namespace skinpulse::net
