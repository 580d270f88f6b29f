#pragma once

// FrameDecoder: turns the bytes a client sends into whole messages, enforcing what RFC
// 6455 requires of a client (every frame masked, RSV bits clear, known opcodes, control
// frames short and unfragmented, continuations only inside a fragmented message, text
// in UTF-8) and the live protocol's limit on message size (docs/api.md §7: over 4 KiB
// closes with 1009). Incremental: bytes may arrive split anywhere.

#include "ws/Frame.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace skinpulse::ws {

struct DecodedMessage {
  Opcode opcode;        ///< kText, kBinary, kClose, kPing or kPong
  std::string payload;  ///< unmasked; fragments joined
};

/// Why decoding stopped: the close code and a short reason to send.
struct DecodeError {
  std::uint16_t code = 0;
  std::string reason;
};

class FrameDecoder {
 public:
  explicit FrameDecoder(std::size_t max_message_bytes) : max_message_(max_message_bytes) {}

  /// Consumes `data`, calling `on_message` for each complete message (control frames as
  /// they arrive, possibly between fragments). Returns false after a violation; the
  /// decoder is then dead and error() tells the close code.
  bool feed(std::string_view data, const std::function<void(DecodedMessage&&)>& on_message);

  const DecodeError& error() const { return error_; }

 private:
  bool fail(std::uint16_t code, std::string reason);
  bool parseHeader();
  bool finishFrame(const std::function<void(DecodedMessage&&)>& on_message);

  std::size_t max_message_;
  std::string pending_;  ///< bytes of the current frame header not yet complete
  // The frame being read.
  bool in_payload_ = false;
  bool fin_ = false;
  Opcode opcode_ = Opcode::kContinuation;
  std::uint64_t remaining_ = 0;
  std::uint8_t mask_[4] = {0, 0, 0, 0};
  std::size_t mask_offset_ = 0;
  std::string frame_payload_;
  // The fragmented message being assembled (data frames only).
  bool in_message_ = false;
  Opcode message_opcode_ = Opcode::kText;
  std::string message_;
  DecodeError error_;
  bool dead_ = false;
};

}  // namespace skinpulse::ws
