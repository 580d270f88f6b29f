#include "ws/FrameDecoder.hpp"

#include "ws/Utf8.hpp"

#include <algorithm>

namespace skinpulse::ws {
namespace {

bool isControl(Opcode opcode) { return (static_cast<std::uint8_t>(opcode) & 0x8) != 0; }

bool isKnown(std::uint8_t opcode) { return opcode <= 0x2 || (opcode >= 0x8 && opcode <= 0xA); }

// Bytes of header needed once the first two are known: length extension and mask key.
std::size_t headerSize(std::uint8_t second) {
  const std::uint8_t length = second & 0x7F;
  const std::size_t extension = length == 126 ? 2 : length == 127 ? 8 : 0;
  return 2 + extension + ((second & 0x80) != 0 ? 4 : 0);
}

}  // namespace

bool FrameDecoder::fail(std::uint16_t code, std::string reason) {
  dead_ = true;
  error_ = DecodeError{code, std::move(reason)};
  return false;
}

bool FrameDecoder::parseHeader() {
  const auto first = static_cast<std::uint8_t>(pending_[0]);
  const auto second = static_cast<std::uint8_t>(pending_[1]);
  if ((first & 0x70) != 0) return fail(close_code::kProtocolError, "reserved bits set");
  if (!isKnown(first & 0x0F)) return fail(close_code::kProtocolError, "unknown opcode");
  if ((second & 0x80) == 0) return fail(close_code::kProtocolError, "client frame not masked");
  fin_ = (first & 0x80) != 0;
  opcode_ = static_cast<Opcode>(first & 0x0F);
  std::uint64_t length = second & 0x7F;
  std::size_t offset = 2;
  if (length == 126) {
    length = (static_cast<std::uint64_t>(static_cast<std::uint8_t>(pending_[2])) << 8) |
             static_cast<std::uint8_t>(pending_[3]);
    offset = 4;
  } else if (length == 127) {
    length = 0;
    for (std::size_t i = 2; i < 10; ++i) {
      length = (length << 8) | static_cast<std::uint8_t>(pending_[i]);
    }
    if ((length >> 63) != 0) return fail(close_code::kProtocolError, "frame length out of range");
    offset = 10;
  }
  std::copy_n(pending_.data() + offset, 4, reinterpret_cast<char*>(mask_));
  if (isControl(opcode_)) {
    if (!fin_) return fail(close_code::kProtocolError, "fragmented control frame");
    if (length > 125) return fail(close_code::kProtocolError, "control frame over 125 bytes");
  } else {
    if (opcode_ == Opcode::kContinuation && !in_message_) {
      return fail(close_code::kProtocolError, "continuation outside a fragmented message");
    }
    if (opcode_ != Opcode::kContinuation && in_message_) {
      return fail(close_code::kProtocolError, "new message inside a fragmented message");
    }
    // Refused before a byte of the payload is buffered.
    if (length > max_message_ || message_.size() + length > max_message_) {
      return fail(close_code::kMessageTooBig, "message too big");
    }
  }
  pending_.clear();
  in_payload_ = true;
  remaining_ = length;
  mask_offset_ = 0;
  frame_payload_.clear();
  return true;
}

bool FrameDecoder::finishFrame(const std::function<void(DecodedMessage&&)>& on_message) {
  in_payload_ = false;
  if (isControl(opcode_)) {
    if (opcode_ == Opcode::kClose && !frame_payload_.empty()) {
      if (frame_payload_.size() == 1) {
        return fail(close_code::kProtocolError, "close frame with a one-byte payload");
      }
      const auto code =
          static_cast<std::uint16_t>((static_cast<std::uint8_t>(frame_payload_[0]) << 8) |
                                     static_cast<std::uint8_t>(frame_payload_[1]));
      if (!close_code::isValidReceived(code)) {
        return fail(close_code::kProtocolError, "invalid close code");
      }
      if (!isValidUtf8(std::string_view(frame_payload_).substr(2))) {
        return fail(close_code::kInvalidPayload, "close reason is not UTF-8");
      }
    }
    on_message(DecodedMessage{opcode_, std::move(frame_payload_)});
    frame_payload_.clear();
    return true;
  }
  if (opcode_ != Opcode::kContinuation) {
    message_opcode_ = opcode_;
    message_.clear();
  }
  message_.append(frame_payload_);
  frame_payload_.clear();
  if (!fin_) {
    in_message_ = true;
    return true;
  }
  in_message_ = false;
  if (message_opcode_ == Opcode::kText && !isValidUtf8(message_)) {
    return fail(close_code::kInvalidPayload, "text message is not UTF-8");
  }
  on_message(DecodedMessage{message_opcode_, std::move(message_)});
  message_.clear();
  return true;
}

bool FrameDecoder::feed(std::string_view data,
                        const std::function<void(DecodedMessage&&)>& on_message) {
  if (dead_) return false;
  while (!data.empty() || (in_payload_ && remaining_ == 0)) {
    if (!in_payload_) {
      const std::size_t need = pending_.size() < 2 ? 2 : headerSize(pending_[1]);
      const std::size_t take = std::min(need - pending_.size(), data.size());
      pending_.append(data.substr(0, take));
      data.remove_prefix(take);
      if (pending_.size() < 2) continue;
      if ((static_cast<std::uint8_t>(pending_[1]) & 0x80) == 0 ||
          pending_.size() == headerSize(pending_[1])) {
        if (!parseHeader()) return false;
      }
      continue;
    }
    const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, data.size()));
    const std::size_t start = frame_payload_.size();
    frame_payload_.append(data.substr(0, take));
    for (std::size_t i = start; i < frame_payload_.size(); ++i) {
      frame_payload_[i] = static_cast<char>(frame_payload_[i] ^ mask_[mask_offset_++ & 3]);
    }
    data.remove_prefix(take);
    remaining_ -= take;
    if (remaining_ == 0 && !finishFrame(on_message)) return false;
  }
  return true;
}

}  // namespace skinpulse::ws
