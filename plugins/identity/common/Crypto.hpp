#pragma once

// The few primitives the identity flows need: SHA-256 (PKCE S256), base64url without
// padding (RFC 4648 §5) and a comparison whose time does not depend on where two secrets
// first differ.

#include <string>
#include <string_view>

namespace skinpulse::plugins::identity {

/// The 32-byte SHA-256 digest of `data`.
std::string sha256(std::string_view data);

/// base64url (RFC 4648 §5) without '=' padding.
std::string base64UrlNoPadding(std::string_view bytes);

/// True when `a` and `b` are equal; the time taken depends only on their lengths.
bool constantTimeEquals(std::string_view a, std::string_view b);

}  // namespace skinpulse::plugins::identity
