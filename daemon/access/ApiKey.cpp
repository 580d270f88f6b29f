#include "access/ApiKey.hpp"

#include "common/RandomToken.hpp"

#include <openssl/sha.h>

namespace skinpulse::access {
namespace {

bool isBase64Url(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

NewApiKey generateApiKey() {
  NewApiKey fresh;
  fresh.key = std::string(kApiKeyScheme) + common::randomToken(32);
  fresh.prefix = fresh.key.substr(0, kApiKeyPrefixChars);
  fresh.hash = hashApiKey(fresh.key);
  return fresh;
}

std::string hashApiKey(std::string_view key) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(key.data()), key.size(), digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * sizeof digest);
  for (unsigned char byte : digest) {
    hex.push_back(kHex[byte >> 4]);
    hex.push_back(kHex[byte & 0x0f]);
  }
  return hex;
}

bool isWellFormedApiKey(std::string_view text) {
  if (text.size() != kApiKeyChars || text.substr(0, kApiKeyScheme.size()) != kApiKeyScheme) {
    return false;
  }
  for (char c : text.substr(kApiKeyScheme.size())) {
    if (!isBase64Url(c)) return false;
  }
  return true;
}

Credential parseAuthorization(const std::optional<std::string>& header) {
  if (!header) return {};
  std::string_view value = *header;
  constexpr std::string_view kBearer = "bearer";
  Credential malformed{Credential::Kind::kMalformed, {}};
  if (value.size() <= kBearer.size()) return malformed;
  for (std::size_t i = 0; i < kBearer.size(); ++i) {
    if (lower(value[i]) != kBearer[i]) return malformed;
  }
  value.remove_prefix(kBearer.size());
  if (value.front() != ' ') return malformed;
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (!isWellFormedApiKey(value)) return malformed;
  return {Credential::Kind::kKey, std::string(value)};
}

}  // namespace skinpulse::access
