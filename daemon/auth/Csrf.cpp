#include "auth/Csrf.hpp"

#include "common/RandomToken.hpp"

#include <openssl/crypto.h>

namespace skinpulse::auth {

std::string newCsrfToken() { return common::randomToken(32); }

bool constantTimeEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool isStateChanging(const std::string& method) {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

bool csrfTokenMatches(const http::Request& request) {
  if (!request.session.active() || request.session.csrf_token.empty()) return false;
  const auto given = request.header("X-CSRF-Token");
  return given && constantTimeEquals(*given, request.session.csrf_token);
}

}  // namespace skinpulse::auth
