#include "auth/AuthGuard.hpp"

#include "auth/Csrf.hpp"
#include "common/Log.hpp"
#include "http/HttpError.hpp"
#include "http/Router.hpp"

#include <stdexcept>

namespace skinpulse::auth {

void throwStoreUnavailable() {
  throw http::HttpError(503, "store_unavailable",
                        "the session store is unavailable; try again shortly",
                        {{"Retry-After", "5"}});
}

AuthGuard::AuthGuard(const SessionManager& sessions, const RateLimiter& limiter,
                     const http::TrustedProxies& proxies)
    : sessions_(sessions), limiter_(limiter), proxies_(proxies) {}

void AuthGuard::admit(http::Request& request, const http::RouteOptions& route) const {
  if (!route.rate_limit_scope.empty()) {
    // One budget is all the daemon has; a route naming another is a wiring mistake,
    // refused (500) rather than left unlimited.
    if (route.rate_limit_scope != limiter_.scope()) {
      throw std::logic_error("no rate limiter for scope '" + route.rate_limit_scope + "'");
    }
    RateLimiter::Decision decision;
    try {
      decision = limiter_.admit(http::rateLimitKey(proxies_.clientAddress(request)));
    } catch (const state::StoreUnavailable& e) {
      log::main().warn("rate limit: {}", e.what());
      throwStoreUnavailable();
    }
    if (!decision.allowed) {
      throw http::HttpError(429, "rate_limited", "too many authentication requests",
                            {{"Retry-After", std::to_string(decision.retry_after_seconds)}});
    }
  }

  // Inline routes (RouteOptions::runs_inline) run on an HTTP event loop, which must never
  // block on the session store; they are public GETs that never read the session, so
  // the request goes on with none (and a GET needs no CSRF check below).
  if (route.runs_inline) return;
  try {
    request.session = sessions_.load(request);
  } catch (const state::StoreUnavailable& e) {
    // Public endpoints go on without a user context; anything that needs the session
    // fails closed below, never with a 401 that would log the user out.
    log::main().warn("session store: {}", e.what());
    request.session = {};
    request.session.state = http::SessionContext::State::kUnavailable;
  }

  const bool stateChanging = isStateChanging(request.method);
  if (request.session.state == http::SessionContext::State::kUnavailable &&
      (route.requires_user || stateChanging)) {
    throwStoreUnavailable();
  }
  if (route.requires_user && !request.session.signedIn()) {
    throw http::HttpError(401, "unauthenticated", "sign in first");
  }
  if (stateChanging && !csrfTokenMatches(request)) {
    throw http::HttpError(403, "csrf_failed", "missing or wrong X-CSRF-Token");
  }
}

}  // namespace skinpulse::auth
