#pragma once

// AuthModule: sessions, CSRF, the auth rate limit and the sign-in endpoints
// (docs/api.md §5) on the shared store. Its guard is the request middleware the HTTP
// server runs before every handler.

#include "auth/AuthApi.hpp"
#include "auth/AuthGuard.hpp"
#include "auth/AuthOptions.hpp"
#include "auth/ClientAddress.hpp"
#include "auth/RateLimiter.hpp"
#include "auth/SessionManager.hpp"
#include "module/Module.hpp"

#include <memory>
#include <vector>

namespace skinpulse::auth {

class AuthModule final : public module::Module {
 public:
  /// `store` and `users` must outlive the module; `providers` are the enabled identity
  /// plugins.
  AuthModule(const AuthOptions& options, state::SharedStore& store, UserStore& users,
             std::vector<ProviderEntry> providers);

  std::string_view name() const override { return "auth"; }
  void registerRoutes(http::Router& router) override { api_->registerRoutes(router); }

  /// Sessions, rate limit and CSRF for every request.
  const http::RequestGuard& guard() const { return *guard_; }

 private:
  std::unique_ptr<SessionManager> sessions_;
  std::unique_ptr<RateLimiter> rate_limiter_;
  std::unique_ptr<TrustedProxies> trusted_proxies_;
  std::unique_ptr<AuthGuard> guard_;
  std::unique_ptr<AuthApi> api_;
};

}  // namespace skinpulse::auth
