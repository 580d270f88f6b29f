#pragma once

// OAuth2Settings: one provider's configuration, as the daemon derives it from the
// [identity] idpa_* / idpb_* keys (daemon/app/Settings.cpp readIdentityProviders).

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"

#include <chrono>
#include <cstddef>
#include <string>

namespace skinpulse::plugins::oauth2 {

/// idp-a: OpenID Connect style userinfo endpoint with `email_verified`.
/// idp-b: code-hosting style `/user` plus `/user/emails` (primary verified address).
enum class Flavour { kUserinfo, kUserAndEmails };

inline const skinpulse_config_key kConfigKeys[] = {
    {"flavour", "idp-a (userinfo endpoint) or idp-b (/user and /user/emails)", 1},
    {"client_id", "OAuth client id (IDPA_CLIENT_ID / IDPB_CLIENT_ID)", 1},
    {"client_secret", "OAuth client secret (IDPA_CLIENT_SECRET / IDPB_CLIENT_SECRET)", 1},
    {"auth_url", "authorization endpoint (IDPA_AUTH_URL / IDPB_AUTH_URL)", 1},
    {"token_url", "token endpoint (IDPA_TOKEN_URL / IDPB_TOKEN_URL)", 1},
    {"userinfo_url", "idp-a: userinfo endpoint (IDPA_USERINFO_URL)", 0},
    {"api_url", "idp-b: API base of /user and /user/emails (IDPB_API_URL)", 0},
};

struct OAuth2Settings {
  Flavour flavour = Flavour::kUserinfo;
  std::string client_id;
  std::string client_secret;
  std::string auth_url;
  std::string token_url;
  std::string userinfo_url;  ///< kUserinfo only
  std::string api_url;       ///< kUserAndEmails only, without trailing '/'
  std::string scope;         ///< docs/api.md §5, fixed per flavour

  /// Every upstream call of a login shares these bounds.
  std::chrono::milliseconds timeout{10000};
  std::size_t token_max_bytes = 64 * 1024;
  std::size_t profile_max_bytes = 256 * 1024;

  /// Reads and checks the keys; throws std::invalid_argument naming the bad key.
  static OAuth2Settings from(const sdk::Config& config);
};

}  // namespace skinpulse::plugins::oauth2
