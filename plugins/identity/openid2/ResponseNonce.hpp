#pragma once

// openid.response_nonce (OpenID 2.0 §10.1): a UTC timestamp `YYYY-MM-DDTHH:MM:SSZ`
// followed by up to 235 printable ASCII characters, 255 at most in all.
//
// The host remembers each accepted nonce for kReplayWindowSeconds (replay_key). A nonce is
// accepted only while it is younger than kMaxAgeSeconds and at most kMaxFutureSeconds
// ahead of our clock: kMaxAgeSeconds + kMaxFutureSeconds < kReplayWindowSeconds, so every
// nonce that could still pass the age check is still remembered.

#include <cstdint>
#include <optional>
#include <string_view>

namespace skinpulse::plugins::openid2 {

inline constexpr std::int64_t kReplayWindowSeconds = 600;
inline constexpr std::int64_t kMaxAgeSeconds = 300;
inline constexpr std::int64_t kMaxFutureSeconds = 60;
inline constexpr std::size_t kMaxNonceBytes = 255;

/// The nonce's timestamp as Unix seconds, or nullopt when the nonce is malformed (bad
/// length, bad timestamp, characters outside 0x21..0x7E).
std::optional<std::int64_t> nonceTime(std::string_view nonce);

/// True when the nonce is well formed and its time lies in [now - kMaxAgeSeconds,
/// now + kMaxFutureSeconds].
bool isFreshNonce(std::string_view nonce, std::int64_t now_seconds);

}  // namespace skinpulse::plugins::openid2
