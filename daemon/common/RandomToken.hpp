#pragma once

// Unpredictable tokens for plugins (OAuth state, PKCE verifiers, nonces).

#include <cstddef>
#include <string>

namespace skinpulse::common {

/// `bytes` bytes from the kernel CSPRNG (getrandom(2); Poco::RandomInputStream if that is
/// unavailable), encoded base64url without padding: ceil(4 * bytes / 3) characters of
/// [A-Za-z0-9_-].
std::string randomToken(std::size_t bytes);

/// base64url (RFC 4648 §5) without '=' padding.
std::string base64UrlNoPadding(const unsigned char* data, std::size_t size);

}  // namespace skinpulse::common
