#include "auth/AuthOptions.hpp"

#include "common/ConfigError.hpp"
#include "common/ValueParsers.hpp"

namespace skinpulse::auth {
namespace {

constexpr std::size_t kMinSecretBytes = 32;

}  // namespace

const common::OptionTable<AuthOptions>& authOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<AuthOptions> table = {
      {{"session.secret", T::kText, 0, 0, "SESSION_SECRET", nullptr,
        "The key that signs session cookies (HMAC-SHA256), at least 32 bytes. Keep it in the "
        "environment, not in a file others can read.",
        "none: required"},
       &AuthOptions::session_secret},
      {{"session.lifetime_hours", T::kInteger, 1, 24 * 365, "SESSION_LIFETIME_HOURS", "72",
        "Session lifetime in hours (the cookie's Max-Age)."},
       &AuthOptions::session_lifetime_hours},
      {{"session.anonymous_lifetime_minutes", T::kInteger, 15, 24 * 60,
        "SESSION_ANONYMOUS_LIFETIME_MINUTES", "30",
        "Lifetime of an anonymous session (a CSRF token, a login in progress) in minutes; a "
        "sign-in replaces it with a session of session.lifetime_hours. At least 15: a "
        "login's state lives 10 minutes in it."},
       &AuthOptions::anonymous_lifetime_minutes},
      {{"session.cookie_secure", T::kBoolean, 0, 0, "SESSION_COOKIE_SECURE", nullptr,
        "Whether the session cookie is Secure (and named __Host-skinpulse_session).",
        "true when base_url is https://"},
       &AuthOptions::cookie_secure},
      {{"auth.rate_limit_per_minute", T::kInteger, 1, 1000000, "AUTH_RATE_LIMIT_PER_MINUTE", "20",
        "Requests per client address in any sliding minute under /api/v1/auth."},
       &AuthOptions::rate_limit_per_minute},
      {{"http.trusted_proxies", T::kList, 0, 0, "TRUSTED_PROXIES", "",
        "CIDRs (comma list) of proxies whose X-Forwarded-For is believed; otherwise the peer "
        "address is the client."},
       &AuthOptions::trusted_proxies},
      {{"gameid.max_accounts", T::kInteger, 1, 20, nullptr, "5",
        "Game-platform accounts one user may link, each verified by OpenID; linking one "
        "more is refused with ?auth_error=too_many_accounts. Lowering it keeps the links a "
        "user already has."},
       &AuthOptions::max_game_accounts},
  };
  return table;
}

AuthOptions readAuthOptions(const common::OptionReader& read, const std::string& base_url,
                            const std::string& frontend_url, bool secret_optional) {
  AuthOptions options;
  options.base_url = base_url;
  options.frontend_url = frontend_url;
  const bool secretMissing = !read.present("session.secret") || read.text("session.secret").empty();
  if (secretMissing && !secret_optional) {
    const std::string name =
        read.present("session.secret") ? read.tree().describe("session.secret") : "SESSION_SECRET";
    throw common::ConfigError(name, "missing; set it to at least 32 random bytes",
                              "session.secret");
  }
  if (!secretMissing && read.text("session.secret").size() < kMinSecretBytes) {
    read.fail("session.secret", "is " + std::to_string(read.text("session.secret").size()) +
                                    " bytes; at least 32 are required");
  }
  common::readOptions(authOptionTable(), read, options);
  for (const auto& cidr : options.trusted_proxies) {
    if (!common::isValidCidr(cidr))
      read.fail("http.trusted_proxies", "'" + cidr + "' is not a CIDR");
  }
  if (!read.present("session.cookie_secure")) {
    options.cookie_secure = base_url.rfind("https://", 0) == 0;
  }
  return options;
}

}  // namespace skinpulse::auth
