#include "alerts/Signature.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <stdexcept>

namespace skinpulse::alerts {
namespace {

std::string hex(const unsigned char* data, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (std::size_t i = 0; i < size; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 0x0f];
  }
  return out;
}

}  // namespace

std::string hmacSha256Hex(std::string_view key, std::string_view message) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest,
           &length) == nullptr) {
    throw std::runtime_error("HMAC-SHA256 failed");
  }
  return hex(digest, length);
}

std::string signatureHeader(std::string_view secret, std::int64_t unix_time,
                            std::string_view body) {
  const std::string t = std::to_string(unix_time);
  std::string message;
  message.reserve(t.size() + 1 + body.size());
  message.append(t).append(".").append(body);
  return "t=" + t + ",v1=" + hmacSha256Hex(secret, message);
}

std::string newWebhookSecret() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    throw std::runtime_error("the random generator failed to make a webhook secret");
  }
  return "whsec_" + hex(bytes, sizeof bytes);
}

}  // namespace skinpulse::alerts
