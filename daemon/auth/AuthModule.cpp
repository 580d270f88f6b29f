#include "auth/AuthModule.hpp"

namespace skinpulse::auth {

AuthModule::AuthModule(const AuthOptions& options, state::SharedStore& store, UserStore& users,
                       std::vector<ProviderEntry> providers) {
  sessions_ = std::make_unique<SessionManager>(
      store, SessionOptions{options.session_secret, options.session_lifetime_hours,
                            options.cookie_secure});
  rate_limiter_ =
      std::make_unique<RateLimiter>(store, kAuthRateLimitScope, options.rate_limit_per_minute);
  trusted_proxies_ = std::make_unique<TrustedProxies>(options.trusted_proxies);
  guard_ = std::make_unique<AuthGuard>(*sessions_, *rate_limiter_, *trusted_proxies_);
  api_ = std::make_unique<AuthApi>(*sessions_, store, users, std::move(providers),
                                   AuthApiOptions{options.base_url, options.frontend_url});
}

}  // namespace skinpulse::auth
