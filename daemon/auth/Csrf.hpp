#pragma once

// CSRF synchronizer token (docs/api.md "CSRF protection"): a random token stored with
// the session, returned by GET /api/v1/auth/csrf and expected back in X-CSRF-Token on
// every state-changing request. It lives as long as the session (rotation gives a new
// one).

#include "http/Request.hpp"

#include <string>
#include <string_view>

namespace skinpulse::auth {

/// A new token: 32 random bytes, base64url.
std::string newCsrfToken();

/// Constant-time equality (for equal lengths; a length mismatch answers false at once,
/// which reveals only the length of a random token).
bool constantTimeEquals(std::string_view a, std::string_view b);

/// POST, PUT, PATCH, DELETE: the methods that must carry the token.
bool isStateChanging(const std::string& method);

/// True when the request's X-CSRF-Token matches the token of its active session.
bool csrfTokenMatches(const http::Request& request);

}  // namespace skinpulse::auth
