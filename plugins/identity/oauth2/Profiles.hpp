#pragma once

// The profile step of each flavour: from an access token to a VerifiedIdentity whose
// e-mail is set only when the provider asserts it verified (docs/api.md §5).

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/identity.hpp"

#include "OAuth2Settings.hpp"

#include <string>

namespace skinpulse::plugins::oauth2 {

/// idp-a: GET userinfo_url; `sub` is the subject, `email` counts only with
/// `email_verified` true; `name` and `picture` are the display name and avatar.
sdk::VerifiedIdentity fetchUserinfoProfile(sdk::HttpClient& http, const OAuth2Settings& settings,
                                           const std::string& access_token);

/// idp-b: GET {api_url}/user (numeric `id`, `name` or `login`, `avatar_url`), then
/// GET {api_url}/user/emails for the one primary address, which must be verified.
sdk::VerifiedIdentity fetchUserAndEmailsProfile(sdk::HttpClient& http,
                                                const OAuth2Settings& settings,
                                                const std::string& access_token);

/// Display names longer than this are cut.
inline constexpr std::size_t kMaxDisplayNameBytes = 200;

}  // namespace skinpulse::plugins::oauth2
