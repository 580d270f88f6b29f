#pragma once

// The HTTP exchanges of an OAuth 2.0 login, built once so every call carries the same
// timeout, byte cap and headers. All go through the host HTTP client.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/identity.hpp"

#include "OAuth2Settings.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugins::oauth2 {

/// GET `url` with `Authorization: Bearer <token>` and the given Accept header.
sdk::HttpRequest bearerGet(const OAuth2Settings& settings, std::string url,
                           const std::string& access_token, std::string accept);

/// A refusal (provider_error) when `response` is not a usable 2xx, naming `what`.
std::optional<sdk::VerifiedIdentity> upstreamFailure(const sdk::HttpResponse& response,
                                                     std::string_view what);

/// A plausible mailbox: 3..254 bytes, one '@' with text on both sides, no whitespace or
/// control characters. Not an RFC 5322 parser; the provider vouches for the address.
bool isPlausibleEmail(std::string_view email);

/// `url` when it is an absolute http(s) URL of at most 2048 bytes, else empty: an avatar
/// is shown to users, so a javascript: or data: URL is dropped.
std::string safeAvatarUrl(std::string_view url);

}  // namespace skinpulse::plugins::oauth2
