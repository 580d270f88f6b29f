// Bytes a WebSocket client sends after the handshake, split at a fuzzer-chosen point
// (the decoder must give the same answer however the bytes arrive).
#include "ws/FrameDecoder.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t split = data[0] % (size);
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  auto decode = [&](bool in_two_parts, std::size_t& messages) {
    skinpulse::ws::FrameDecoder decoder(4096);
    auto on_message = [&](skinpulse::ws::DecodedMessage&&) { ++messages; };
    if (!in_two_parts) return decoder.feed(bytes, on_message);
    const std::size_t at = split < bytes.size() ? split : bytes.size();
    return decoder.feed(bytes.substr(0, at), on_message) &&
           decoder.feed(bytes.substr(at), on_message);
  };
  std::size_t whole_messages = 0;
  std::size_t split_messages = 0;
  const bool whole = decode(false, whole_messages);
  const bool parts = decode(true, split_messages);
  if (whole != parts || whole_messages != split_messages) __builtin_trap();
  return 0;
}
