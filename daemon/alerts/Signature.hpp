#pragma once

// Signature: the X-Skinpulse-Signature header of webhook deliveries (docs/api.md §13):
// `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, and the webhook secrets.

#include <cstdint>
#include <string>
#include <string_view>

namespace skinpulse::alerts {

/// Lower-case hex of HMAC-SHA256(key, message) (OpenSSL).
std::string hmacSha256Hex(std::string_view key, std::string_view message);

/// The header value for `body` sent at `unix_time`.
std::string signatureHeader(std::string_view secret, std::int64_t unix_time, std::string_view body);

/// A new webhook secret: "whsec_" and 64 hex digits of OpenSSL RAND_bytes (256 bits).
/// Throws std::runtime_error when the generator fails.
std::string newWebhookSecret();

}  // namespace skinpulse::alerts
