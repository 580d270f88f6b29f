#include "ws/Frame.hpp"

#include <algorithm>

namespace skinpulse::ws {

bool close_code::isValidReceived(std::uint16_t code) {
  // 1004-1006 and 1015 are reserved for local use and must never appear on the wire;
  // 1012-1014 are registered by IANA; 3000-4999 belong to libraries and applications.
  if (code >= 1000 && code <= 1003) return true;
  if (code >= 1007 && code <= 1014) return true;
  return code >= 3000 && code <= 4999;
}

std::size_t frameHeaderSize(std::size_t payload_size) {
  if (payload_size < 126) return 2;
  if (payload_size <= 0xFFFF) return 4;
  return 10;
}

void appendFrameHeader(std::string& out, Opcode opcode, std::size_t payload_size) {
  out.push_back(static_cast<char>(0x80 | static_cast<std::uint8_t>(opcode)));
  if (payload_size < 126) {
    out.push_back(static_cast<char>(payload_size));
  } else if (payload_size <= 0xFFFF) {
    out.push_back(static_cast<char>(126));
    out.push_back(static_cast<char>((payload_size >> 8) & 0xFF));
    out.push_back(static_cast<char>(payload_size & 0xFF));
  } else {
    out.push_back(static_cast<char>(127));
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.push_back(static_cast<char>((static_cast<std::uint64_t>(payload_size) >> shift) & 0xFF));
    }
  }
}

std::string encodeFrame(Opcode opcode, std::string_view payload) {
  std::string out;
  out.reserve(frameHeaderSize(payload.size()) + payload.size());
  appendFrameHeader(out, opcode, payload.size());
  out.append(payload);
  return out;
}

std::string encodeClose(std::uint16_t code, std::string_view reason) {
  // A control frame carries at most 125 bytes: 2 for the code, the rest for the reason.
  // Our reasons are ASCII, so cutting them cannot split a UTF-8 sequence.
  reason = reason.substr(0, std::min<std::size_t>(reason.size(), 123));
  std::string payload;
  payload.push_back(static_cast<char>(code >> 8));
  payload.push_back(static_cast<char>(code & 0xFF));
  payload.append(reason);
  return encodeFrame(Opcode::kClose, payload);
}

}  // namespace skinpulse::ws
