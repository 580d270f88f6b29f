#pragma once

// SessionManager: server-side sessions in the shared store (docs/api.md §5,
// docs/api.md "Session lifecycle"). A session is created anonymous (GET /auth/csrf, or
// the start of a login, which needs somewhere to keep its flow) and becomes a user's
// session only through rotate() — a new id on every login and link, so an id planted
// before login is worthless after it (no session fixation).
//
// The stored record carries its own expiry, checked on every load against the clock:
// the store's TTL only collects garbage. All methods throw state::StoreUnavailable when
// the store is down; callers fail closed.

#include "auth/SessionCookie.hpp"
#include "http/Request.hpp"
#include "http/SessionContext.hpp"
#include "state/SharedStore.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace skinpulse::auth {

struct SessionOptions {
  std::string secret;       ///< SESSION_SECRET
  int lifetime_hours = 72;  ///< SESSION_LIFETIME_HOURS
  bool secure = false;      ///< cookie Secure (and the __Host- name prefix)
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

  /// The session named by the request's cookie: kActive, or kNone when there is no
  /// cookie, a bad tag, no stored record or an expired one. Throws StoreUnavailable.
  http::SessionContext load(const http::Request& request) const;
  /// The session of a cookie value (as load(), for callers without a Request).
  http::SessionContext loadCookieValue(const std::string& cookie_value) const;

  /// A new session for `user_id` ("" for anonymous) with a fresh CSRF token.
  IssuedSession create(const std::string& user_id) const;
  /// Login and link: replaces `current` (which may be inactive) with a new session of
  /// `user_id`; the old id stops working at once.
  IssuedSession rotate(const http::SessionContext& current, const std::string& user_id) const;
  /// Logout: deletes the stored session.
  void destroy(const http::SessionContext& session) const;

  /// Set-Cookie value that installs `issued` (HttpOnly; SameSite=Lax; Path=/; Max-Age =
  /// lifetime; Secure when configured).
  std::string setCookieHeader(const IssuedSession& issued) const;
  /// Set-Cookie value that clears the cookie (Max-Age=0 and an expiry in the past).
  std::string clearCookieHeader() const;

 private:
  IssuedSession store(const std::string& user_id) const;

  state::SharedStore& store_;
  SessionCookie cookie_;
  std::int64_t lifetime_seconds_;
  bool secure_;
  std::string cookie_name_;
  Clock clock_;
};

/// The value of cookie `name` in the request's Cookie header(s); nullopt when absent.
std::optional<std::string> findCookie(const http::Request& request, const std::string& name);

}  // namespace skinpulse::auth
