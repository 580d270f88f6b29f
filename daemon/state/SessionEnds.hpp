#pragma once

// SessionEnds: told when a stored session ends before its expiry (logout, the rotation
// of a login or link, an account gone), so whatever rode on it ends too. The WebSocket
// module implements it and provides it in the registry (module/Registry.hpp): it closes
// that session's signed-in sockets on every instance (docs/api.md §7). The auth module
// tells it without including ws/.

#include <string>

namespace skinpulse::state {

class SessionEnds {
 public:
  virtual ~SessionEnds() = default;
  /// `session_key`: the shared-store key of the session (a hash of its id, never the
  /// id). Never blocks on the network and never throws.
  virtual void sessionEnded(const std::string& session_key) = 0;
};

}  // namespace skinpulse::state
