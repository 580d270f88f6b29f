#pragma once

// SessionCheck: the backstop of "a session ends everywhere" (docs/api.md §7). A session
// end travels the event bus, and Redis pub/sub drops what is published while it is
// unreachable; so every instance also looks up, now and then, the sessions of its
// signed-in sockets in the shared store, and closes (4001) the sockets of any session
// that is gone (logged out, rotated, deleted with its account or by an operator).
// A store outage closes nothing: it cannot tell a gone session from an unreachable one.

#include "state/SharedStore.hpp"
#include "ws/LiveHub.hpp"

#include <cstddef>

namespace skinpulse::ws {

class SessionCheck {
 public:
  SessionCheck(LiveHub& hub, state::SharedStore& store) : hub_(hub), store_(store) {}

  /// One pass; how many sessions were found gone (their sockets are being closed).
  std::size_t run();

 private:
  LiveHub& hub_;
  state::SharedStore& store_;
};

}  // namespace skinpulse::ws
