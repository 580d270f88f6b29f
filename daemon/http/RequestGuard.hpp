#pragma once

// RequestGuard: the middleware slot of the Dispatcher. It runs after routing (404/405)
// and before the body check and the handler, in the order of docs/api.md §2: rate limit
// → session (401/503) → CSRF (403). It refuses by throwing HttpError; it may also fill
// Request::session. daemon/auth/AuthGuard is the daemon's guard.

#include "http/Request.hpp"

namespace skinpulse::http {

struct RouteOptions;

class RequestGuard {
 public:
  virtual ~RequestGuard() = default;
  /// Throws HttpError to refuse `request`.
  virtual void admit(Request& request, const RouteOptions& route) const = 0;
};

}  // namespace skinpulse::http
