#pragma once

// ApiKey: the form of an API key and of the header that presents it (docs/api.md, "API
// keys and read budgets").
//
//   key    = "spk_" base64url(32 random bytes, no padding)   (4 + 43 characters)
//   prefix = the key's first 12 characters ("spk_" and 8 of the secret), for display
//   stored = hex(SHA-256(key)): a database dump yields no usable key
//
// A key travels in `Authorization: Bearer <key>` (RFC 6750 §2.1); nothing else carries it.

#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::access {

inline constexpr std::string_view kApiKeyScheme = "spk_";
inline constexpr std::size_t kApiKeySecretChars = 43;  ///< base64url of 32 bytes
inline constexpr std::size_t kApiKeyChars = kApiKeyScheme.size() + kApiKeySecretChars;
inline constexpr std::size_t kApiKeyPrefixChars = 12;

struct NewApiKey {
  std::string key;     ///< shown once to its holder
  std::string prefix;  ///< kept for display
  std::string hash;    ///< kept to recognise it
};

/// A fresh key from the kernel CSPRNG.
NewApiKey generateApiKey();

/// hex(SHA-256(key)), lower case.
std::string hashApiKey(std::string_view key);

/// What the Authorization header of a request says about API keys.
struct Credential {
  enum class Kind {
    kNone,       ///< no Authorization header
    kMalformed,  ///< an Authorization header that is not `Bearer <key>` with a well-formed key
    kKey,        ///< a well-formed key (known or not: the directory decides)
  };
  Kind kind = Kind::kNone;
  std::string key;  ///< kKey only
};

/// Parses an Authorization header value (absent: nullopt). The scheme is matched without
/// regard to case, one or more spaces may follow it; the key must be exactly kApiKeyChars
/// characters of the form above.
Credential parseAuthorization(const std::optional<std::string>& header);

/// Whether `text` has the form of a key (scheme, length, alphabet).
bool isWellFormedApiKey(std::string_view text);

}  // namespace skinpulse::access
