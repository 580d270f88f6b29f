#include "Pkce.hpp"

#include "Crypto.hpp"

namespace skinpulse::plugins::oauth2 {

std::string s256Challenge(std::string_view code_verifier) {
  return identity::base64UrlNoPadding(identity::sha256(code_verifier));
}

bool isValidVerifier(std::string_view verifier) {
  if (verifier.size() < 43 || verifier.size() > 128) return false;
  for (const char c : verifier) {
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (!unreserved) return false;
  }
  return true;
}

}  // namespace skinpulse::plugins::oauth2
