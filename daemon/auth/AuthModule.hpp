#pragma once

// AuthModule: sessions, CSRF, the auth rate limit and the sign-in endpoints
// (docs/api.md §5) on the shared store. Its guard is the request middleware the HTTP
// server runs before every handler (offered in the registry as http::RequestGuard).

#include "auth/AuthApi.hpp"
#include "auth/AuthGuard.hpp"
#include "auth/AuthOptions.hpp"
#include "auth/RateLimiter.hpp"
#include "auth/SessionManager.hpp"
#include "http/ClientAddress.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"

#include <memory>
#include <vector>

namespace skinpulse::auth {

/// The identity providers enabled by their environment variables: provided by app/ (from
/// the plugin set) in the registry before the modules are built.
struct IdentityProviders {
  std::vector<ProviderEntry> entries;
};

class AuthModule final : public module::Module {
 public:
  /// Sessions on the shared store, users in the database, the registry's
  /// IdentityProviders; provides its guard as the registry's http::RequestGuard (the HTTP
  /// server runs it before every handler).
  AuthModule(module::Services& services, const AuthOptions& options);

  /// Tells the sessions the registry's state::SessionEnds (the WebSocket module), if any.
  void attach(module::Services& services) override;

  std::string_view name() const override { return "auth"; }
  void registerRoutes(http::Router& router) override { api_->registerRoutes(router); }

  /// Sessions, rate limit and CSRF for every request.
  const http::RequestGuard& guard() const { return *guard_; }

 private:
  std::unique_ptr<SessionManager> sessions_;
  std::unique_ptr<RateLimiter> rate_limiter_;
  std::unique_ptr<http::TrustedProxies> trusted_proxies_;
  std::unique_ptr<AuthGuard> guard_;
  std::unique_ptr<AuthApi> api_;
};

}  // namespace skinpulse::auth
