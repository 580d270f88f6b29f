#pragma once

// Client-side helpers for the WebSocket tests: masked frames as a browser sends them,
// and a parser for the server's unmasked frames.

#include "ws/Frame.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <vector>

namespace wstest {

inline std::string clientFrame(std::uint8_t first_byte, std::string_view payload,
                               bool masked = true) {
  std::string out;
  out.push_back(static_cast<char>(first_byte));
  const std::uint8_t mask_bit = masked ? 0x80 : 0;
  if (payload.size() < 126) {
    out.push_back(static_cast<char>(mask_bit | payload.size()));
  } else if (payload.size() <= 0xFFFF) {
    out.push_back(static_cast<char>(mask_bit | 126));
    out.push_back(static_cast<char>(payload.size() >> 8));
    out.push_back(static_cast<char>(payload.size() & 0xFF));
  } else {
    out.push_back(static_cast<char>(mask_bit | 127));
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.push_back(
          static_cast<char>((static_cast<std::uint64_t>(payload.size()) >> shift) & 0xFF));
    }
  }
  const std::uint8_t key[4] = {0x37, 0xFA, 0x21, 0x3D};
  if (masked) out.append(reinterpret_cast<const char*>(key), 4);
  for (std::size_t i = 0; i < payload.size(); ++i) {
    out.push_back(masked ? static_cast<char>(payload[i] ^ key[i % 4]) : payload[i]);
  }
  return out;
}

/// A final, masked text frame.
inline std::string textFrame(std::string_view text) { return clientFrame(0x81, text); }

/// A masked close frame with `code`.
inline std::string closeFrame(std::uint16_t code) {
  std::string payload;
  payload.push_back(static_cast<char>(code >> 8));
  payload.push_back(static_cast<char>(code & 0xFF));
  return clientFrame(0x88, payload);
}

struct ServerFrame {
  std::uint8_t opcode;
  std::string payload;
  std::uint16_t closeCode() const {
    return payload.size() < 2
               ? 0
               : static_cast<std::uint16_t>((static_cast<std::uint8_t>(payload[0]) << 8) |
                                            static_cast<std::uint8_t>(payload[1]));
  }
};

/// Parses every complete server frame at the front of `bytes`, removing them.
inline std::vector<ServerFrame> parseServerFrames(std::string& bytes) {
  std::vector<ServerFrame> frames;
  for (;;) {
    if (bytes.size() < 2) break;
    const auto second = static_cast<std::uint8_t>(bytes[1]);
    if ((second & 0x80) != 0) throw std::runtime_error("server frame is masked");
    std::uint64_t length = second & 0x7F;
    std::size_t header = 2;
    if (length == 126) {
      if (bytes.size() < 4) break;
      length = (static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes[2])) << 8) |
               static_cast<std::uint8_t>(bytes[3]);
      header = 4;
    } else if (length == 127) {
      if (bytes.size() < 10) break;
      length = 0;
      for (int i = 2; i < 10; ++i) length = (length << 8) | static_cast<std::uint8_t>(bytes[i]);
      header = 10;
    }
    if (bytes.size() < header + length) break;
    if ((static_cast<std::uint8_t>(bytes[0]) & 0x80) == 0) {
      throw std::runtime_error("server frame not final");
    }
    frames.push_back(
        ServerFrame{static_cast<std::uint8_t>(bytes[0] & 0x0F), bytes.substr(header, length)});
    bytes.erase(0, header + length);
  }
  return frames;
}

/// Reads what `fd` holds right now (non-blocking) and appends it to `bytes`.
inline void drain(int fd, std::string& bytes) {
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n <= 0) return;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace wstest
