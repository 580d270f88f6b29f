#pragma once

// AuthOptions: what the auth feature reads of the configuration ([session], [auth],
// [http] trusted_proxies, and the addresses sign-in flows redirect to), filled by app/
// from the validated Settings.

#include <string>
#include <vector>

namespace skinpulse::auth {

struct AuthOptions {
  std::string base_url;      ///< BASE_URL without trailing '/': callback URLs, realm
  std::string frontend_url;  ///< FRONTEND_URL: where the browser goes after a login
  std::string session_secret;
  int session_lifetime_hours = 72;
  bool cookie_secure = false;
  int rate_limit_per_minute = 20;
  std::vector<std::string> trusted_proxies;  ///< CIDRs
};

}  // namespace skinpulse::auth
