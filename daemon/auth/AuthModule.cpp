#include "auth/AuthModule.hpp"

namespace skinpulse::auth {

AuthModule::AuthModule(module::Services& services, const AuthOptions& options) {
  state::SharedStore& store = services.shared_store;
  sessions_ = std::make_unique<SessionManager>(
      store, SessionOptions{options.session_secret, options.session_lifetime_hours,
                            options.cookie_secure, options.anonymous_lifetime_minutes});
  rate_limiter_ =
      std::make_unique<RateLimiter>(store, kAuthRateLimitScope, options.rate_limit_per_minute);
  trusted_proxies_ = std::make_unique<http::TrustedProxies>(options.trusted_proxies);
  guard_ = std::make_unique<AuthGuard>(*sessions_, *rate_limiter_, *trusted_proxies_);
  api_ = std::make_unique<AuthApi>(
      *sessions_, store, services.database.users(),
      services.registry.require<IdentityProviders>().entries,
      AuthApiOptions{options.base_url, options.frontend_url, options.max_game_accounts});
  services.registry.provide<http::RequestGuard>(*guard_);
  // The HTTP server keys its connection caps by the same client as the rate limit.
  services.registry.provide<http::TrustedProxies>(*trusted_proxies_);
}

}  // namespace skinpulse::auth

namespace skinpulse::auth {

void AuthModule::attach(module::Services& services) {
  // The WebSocket module, when built, closes an ended session's sockets everywhere.
  sessions_->setSessionEnds(services.registry.find<state::SessionEnds>());
}

}  // namespace skinpulse::auth
