#include "common/RandomToken.hpp"

#include <Poco/RandomStream.h>

#include <cerrno>
#include <sys/random.h>
#include <vector>

namespace skinpulse::common {
namespace {

void fillFromPoco(unsigned char* data, std::size_t size) {
  Poco::RandomInputStream stream;
  stream.read(reinterpret_cast<char*>(data), static_cast<std::streamsize>(size));
}

void fillRandom(unsigned char* data, std::size_t size) {
  std::size_t filled = 0;
  while (filled < size) {
    const ssize_t got = ::getrandom(data + filled, size - filled, 0);
    if (got > 0) {
      filled += static_cast<std::size_t>(got);
    } else if (got < 0 && errno != EINTR) {
      fillFromPoco(data + filled, size - filled);
      return;
    }
  }
}

}  // namespace

std::string randomToken(std::size_t bytes) {
  std::vector<unsigned char> buffer(bytes);
  fillRandom(buffer.data(), buffer.size());
  return base64UrlNoPadding(buffer.data(), buffer.size());
}

std::string base64UrlNoPadding(const unsigned char* data, std::size_t size) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((size * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const unsigned v = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const std::size_t rest = size - i;
  if (rest > 0) {
    const unsigned v = (data[i] << 16) | (rest == 2 ? data[i + 1] << 8 : 0);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    if (rest == 2) out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

}  // namespace skinpulse::common
