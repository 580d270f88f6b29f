#pragma once

// AuthGuard: the daemon's RequestGuard (docs/api.md §2 order, after routing):
//   1. rate limit on every route whose RouteOptions::rate_limit_scope is the limiter's
//      (AuthApi declares kAuthRateLimitScope for /api/v1/auth; 429 rate_limited +
//      Retry-After);
//   2. session: loaded from the cookie for every request that carries one; a store
//      outage leaves public routes running without a user context and answers
//      503 store_unavailable where a session is needed; RequireAuth routes without a
//      signed-in session answer 401 unauthenticated;
//   3. CSRF: every state-changing request must carry the session's token in
//      X-CSRF-Token (403 csrf_failed).
// The shared store failing anywhere in here fails closed (503).

#include "auth/RateLimiter.hpp"
#include "auth/SessionManager.hpp"
#include "http/ClientAddress.hpp"
#include "http/RequestGuard.hpp"

namespace skinpulse::auth {

class AuthGuard final : public http::RequestGuard {
 public:
  AuthGuard(const SessionManager& sessions, const RateLimiter& limiter,
            const http::TrustedProxies& proxies);

  void admit(http::Request& request, const http::RouteOptions& route) const override;

 private:
  const SessionManager& sessions_;
  const RateLimiter& limiter_;
  const http::TrustedProxies& proxies_;
};

/// The 503 store_unavailable refusal (with Retry-After) for an outage of the shared store.
[[noreturn]] void throwStoreUnavailable();

}  // namespace skinpulse::auth
