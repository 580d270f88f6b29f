#pragma once

// RFC 6455 frames as the server writes them: unmasked, FIN set, one frame per message
// (the server never fragments). Close codes used by the live-update protocol
// (docs/api.md §7) are named here.

#include <cstdint>
#include <string>
#include <string_view>

namespace skinpulse::ws {

enum class Opcode : std::uint8_t {
  kContinuation = 0x0,
  kText = 0x1,
  kBinary = 0x2,
  kClose = 0x8,
  kPing = 0x9,
  kPong = 0xA,
};

/// Close status codes (RFC 6455 §7.4.1).
namespace close_code {
inline constexpr std::uint16_t kNormal = 1000;
inline constexpr std::uint16_t kGoingAway = 1001;
inline constexpr std::uint16_t kProtocolError = 1002;
inline constexpr std::uint16_t kNoStatus = 1005;  ///< never sent: "the close frame had no code"
inline constexpr std::uint16_t kInvalidPayload = 1007;
inline constexpr std::uint16_t kPolicyViolation = 1008;
inline constexpr std::uint16_t kMessageTooBig = 1009;
inline constexpr std::uint16_t kTryAgainLater = 1013;

/// Whether a peer may send `code` in a close frame (RFC 6455 §7.4).
bool isValidReceived(std::uint16_t code);
}  // namespace close_code

/// Size of the header of an unmasked frame carrying `payload_size` bytes.
std::size_t frameHeaderSize(std::size_t payload_size);

/// Appends the header of an unmasked, final frame to `out`.
void appendFrameHeader(std::string& out, Opcode opcode, std::size_t payload_size);

/// A whole unmasked, final frame.
std::string encodeFrame(Opcode opcode, std::string_view payload);

/// A close frame with `code` and a short reason (truncated to fit a control frame).
std::string encodeClose(std::uint16_t code, std::string_view reason = {});

}  // namespace skinpulse::ws
