#pragma once

// SessionCookie: the signed cookie value of a session (docs/api.md §5).
//
//   value = base64url(id) "." base64url(HMAC-SHA256(SESSION_SECRET, "skinpulse-session:" id))
//
// The id is 32 random bytes. A value whose tag does not verify (checked in constant
// time) or that is malformed is no session at all. The store never sees the id: it keys
// sessions by storageKey(id) = "session:" hex(SHA-256(id)), so a leaked store dump
// cannot be replayed as cookies.

#include <optional>
#include <string>

namespace skinpulse::auth {

class SessionCookie {
 public:
  /// `secret` is SESSION_SECRET (≥ 32 bytes, checked by Settings).
  explicit SessionCookie(std::string secret);

  /// A fresh 256-bit session id (raw bytes).
  static std::string newId();
  /// The cookie value for `id`.
  std::string sign(const std::string& id) const;
  /// The id inside `value` when its tag verifies; nullopt otherwise.
  std::optional<std::string> verify(const std::string& value) const;
  /// Where the session of `id` lives in the shared store.
  static std::string storageKey(const std::string& id);

 private:
  std::string tag(const std::string& id) const;

  std::string secret_;
};

}  // namespace skinpulse::auth
