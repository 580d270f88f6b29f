#include "net/ConnectionReader.hpp"

#include <algorithm>
#include <cstring>

namespace skinpulse::net {

namespace {
constexpr std::size_t kBufferSize = 16 * 1024;
}  // namespace

ConnectionReader::ConnectionReader(Receive receive, std::string buffered)
    : receive_(std::move(receive)), buffer_(std::move(buffered)) {}

bool ConnectionReader::refill() {
  buffer_.resize(kBufferSize);
  position_ = 0;
  const std::size_t count = receive_(buffer_.data(), buffer_.size());
  buffer_.resize(count);
  return count > 0;
}

std::size_t ConnectionReader::read(char* out, std::size_t n) {
  if (n == 0) return 0;
  if (position_ == buffer_.size()) {
    // Large reads skip the buffer: body bytes are copied once, straight to the caller.
    if (n >= kBufferSize) return receive_(out, n);
    if (!refill()) return 0;
  }
  const std::size_t count = std::min(n, buffer_.size() - position_);
  std::memcpy(out, buffer_.data() + position_, count);
  position_ += count;
  return count;
}

int ConnectionReader::get() {
  if (position_ == buffer_.size() && !refill()) return -1;
  return static_cast<unsigned char>(buffer_[position_++]);
}

}  // namespace skinpulse::net
