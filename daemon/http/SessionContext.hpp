#pragma once

// SessionContext: what the auth middleware learned about the caller's session, attached
// to every Request before its handler runs. The http layer only carries it; the auth
// layer (daemon/auth) fills it and owns sessions.

#include <cstdint>
#include <string>

namespace skinpulse::http {

struct SessionContext {
  enum class State {
    kNone,         ///< no cookie, a bad tag, or no live stored session
    kActive,       ///< a stored, unexpired session (anonymous or signed in)
    kUnavailable,  ///< a cookie was sent but the shared store could not be reached
  };

  State state = State::kNone;
  /// The shared-store key of the session (derived from a hash of its id, never the id).
  std::string key;
  /// The signed-in user's UUID; empty for an anonymous session (one made for CSRF or a
  /// login in progress).
  std::string user_id;
  /// The synchronizer token bound to this session.
  std::string csrf_token;
  std::int64_t created_at = 0;  ///< Unix seconds
  std::int64_t expires_at = 0;  ///< Unix seconds; enforced server-side

  bool active() const { return state == State::kActive; }
  /// A session that belongs to a user: what RequireAuth asks for.
  bool signedIn() const { return state == State::kActive && !user_id.empty(); }
};

}  // namespace skinpulse::http
