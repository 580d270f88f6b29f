#include "auth/SessionCookie.hpp"

#include "auth/Csrf.hpp"
#include "common/RandomToken.hpp"

#include <algorithm>
#include <openssl/hmac.h>
#include <openssl/sha.h>

namespace skinpulse::auth {
namespace {

constexpr std::size_t kIdBytes = 32;  // 256 bits (docs/api.md §5)
constexpr std::size_t kIdChars = 43;  // base64url of 32 bytes, unpadded
constexpr const char* kTagDomain = "skinpulse-session:";

bool isBase64Url(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  });
}

}  // namespace

SessionCookie::SessionCookie(std::string secret) : secret_(std::move(secret)) {}

std::string SessionCookie::newId() { return common::randomToken(kIdBytes); }

std::string SessionCookie::tag(const std::string& id) const {
  const std::string message = kTagDomain + id;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &length);
  return common::base64UrlNoPadding(digest, length);
}

std::string SessionCookie::sign(const std::string& id) const { return id + "." + tag(id); }

std::optional<std::string> SessionCookie::verify(const std::string& value) const {
  const auto dot = value.find('.');
  if (dot != kIdChars) return std::nullopt;
  std::string id = value.substr(0, dot);
  const std::string given = value.substr(dot + 1);
  if (!isBase64Url(id)) return std::nullopt;
  if (!constantTimeEquals(given, tag(id))) return std::nullopt;
  return id;
}

std::string SessionCookie::storageKey(const std::string& id) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(id.data()), id.size(), digest);
  static const char* const kHex = "0123456789abcdef";
  std::string key = "session:";
  for (const unsigned char byte : digest) {
    key += kHex[byte >> 4];
    key += kHex[byte & 0x0f];
  }
  return key;
}

}  // namespace skinpulse::auth
