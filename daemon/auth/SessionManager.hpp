#pragma once

// SessionManager: server-side sessions in the shared store (docs/api.md §5,
// docs/api.md "Session lifecycle"). A session is created anonymous (GET /auth/csrf, or
// the start of a login, which needs somewhere to keep its flow) and becomes a user's
// session only through rotate() — a new id on every login and link, so an id planted
// before login is worthless after it (no session fixation).
//
// An anonymous session lives `anonymous_lifetime_minutes` (30): it only holds a CSRF token
// or a login in progress (10 minutes), so a client fetching tokens without a cookie fills
// the store with short-lived records only (and the /api/v1/auth rate limit caps how many).
// The login's rotate() gives the signed-in session the full SESSION_LIFETIME_HOURS.
//
// Exactly one session cookie is a session: a request carrying our cookie name twice (a
// cookie planted by a sibling host over plain http, "cookie tossing") has none, whichever
// order the browser sent them in (docs/api.md §5).
//
// A session ended before its expiry (destroy, rotate) is announced to the registry's
// state::SessionEnds, when there is one: its signed-in WebSockets close on every
// instance (docs/api.md §7).
//
// The stored record carries its own expiry, checked on every load against the clock:
// the store's TTL only collects garbage. All methods throw state::StoreUnavailable when
// the store is down; callers fail closed.

#include "auth/SessionCookie.hpp"
#include "http/Request.hpp"
#include "http/SessionContext.hpp"
#include "state/SessionEnds.hpp"
#include "state/SharedStore.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::auth {

struct SessionOptions {
  std::string secret;                   ///< SESSION_SECRET
  int lifetime_hours = 72;              ///< SESSION_LIFETIME_HOURS
  bool secure = false;                  ///< cookie Secure (and the __Host- name prefix)
  int anonymous_lifetime_minutes = 30;  ///< [session] anonymous_lifetime_minutes
};

/// A session just created or rotated: its context and the cookie value to send.
struct IssuedSession {
  http::SessionContext context;
  std::string cookie_value;
};

class SessionManager {
 public:
  /// Unix seconds; injectable for tests of expiry.
  using Clock = std::function<std::int64_t()>;

  SessionManager(state::SharedStore& store, SessionOptions settings, Clock clock = {});

  /// "skinpulse_session", or "__Host-skinpulse_session" when Secure.
  const std::string& cookieName() const { return cookie_name_; }
  std::int64_t lifetimeSeconds() const { return lifetime_seconds_; }
  std::int64_t anonymousLifetimeSeconds() const { return anonymous_lifetime_seconds_; }

  /// Who is told of sessions ended by rotate() and destroy() (null: nobody). Set before
  /// the server runs.
  void setSessionEnds(state::SessionEnds* ends) { ends_ = ends; }

  /// The session named by the request's cookie: kActive, or kNone when there is no
  /// cookie, more than one, a bad tag, no stored record or an expired one. Throws
  /// StoreUnavailable.
  http::SessionContext load(const http::Request& request) const;
  /// The session of a cookie value (as load(), for callers without a Request).
  http::SessionContext loadCookieValue(const std::string& cookie_value) const;

  /// A new session for `user_id` ("" for anonymous, with the short anonymous lifetime)
  /// with a fresh CSRF token.
  IssuedSession create(const std::string& user_id) const;
  /// Login and link: replaces `current` (which may be inactive) with a new session of
  /// `user_id`; the old id stops working at once.
  IssuedSession rotate(const http::SessionContext& current, const std::string& user_id) const;
  /// Logout: deletes the stored session.
  void destroy(const http::SessionContext& session) const;

  /// Set-Cookie value that installs `issued` (HttpOnly; SameSite=Lax; Path=/; Max-Age =
  /// the session's lifetime; Secure when configured).
  std::string setCookieHeader(const IssuedSession& issued) const;
  /// Set-Cookie value that clears the cookie (Max-Age=0 and an expiry in the past).
  std::string clearCookieHeader() const;

 private:
  IssuedSession store(const std::string& user_id) const;
  void ended(const http::SessionContext& session) const;

  state::SharedStore& store_;
  SessionCookie cookie_;
  std::int64_t lifetime_seconds_;
  std::int64_t anonymous_lifetime_seconds_;
  bool secure_;
  std::string cookie_name_;
  Clock clock_;
  state::SessionEnds* ends_ = nullptr;
};

/// The values of cookie `name` in the request's Cookie header(s), in the order sent.
std::vector<std::string> findCookies(const http::Request& request, const std::string& name);

}  // namespace skinpulse::auth
