#pragma once

// AuthOptions: what the auth feature reads of the configuration: [session], [auth],
// [gameid] max_accounts and [http] trusted_proxies from its table (authOptionTable), plus the
// daemon's public addresses, which the sign-in flows redirect to.

#include "common/OptionTable.hpp"

#include <string>
#include <vector>

namespace skinpulse::auth {

struct AuthOptions {
  std::string base_url;      ///< BASE_URL without trailing '/': callback URLs, realm
  std::string frontend_url;  ///< FRONTEND_URL: where the browser goes after a login
  std::string session_secret;
  int session_lifetime_hours = 72;
  int anonymous_lifetime_minutes = 30;
  bool cookie_secure = false;
  int rate_limit_per_minute = 20;
  std::vector<std::string> trusted_proxies;  ///< CIDRs
  /// Game-platform accounts one user may link (docs/api.md §23.2).
  int max_game_accounts = 5;
};

const common::OptionTable<AuthOptions>& authOptionTable();

/// Reads the table's keys; `base_url` decides cookie_secure when it is not set. Without
/// `secret_optional` (admin commands that never sign a cookie) a missing secret is an
/// error. Throws ConfigError.
AuthOptions readAuthOptions(const common::OptionReader& read, const std::string& base_url,
                            const std::string& frontend_url, bool secret_optional);

}  // namespace skinpulse::auth
