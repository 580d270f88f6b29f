#pragma once

// PKCE (RFC 7636) with the S256 method only: `plain` gives no protection against a code
// intercepted on its way back, so it is never offered.

#include <string>
#include <string_view>

namespace skinpulse::plugins::oauth2 {

/// BASE64URL-ENCODE(SHA256(ASCII(code_verifier))), RFC 7636 §4.2.
std::string s256Challenge(std::string_view code_verifier);

/// True when `verifier` satisfies RFC 7636 §4.1: 43 to 128 characters of
/// [A-Za-z0-9-._~].
bool isValidVerifier(std::string_view verifier);

}  // namespace skinpulse::plugins::oauth2
