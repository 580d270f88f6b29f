#pragma once

// WsOptions: what the live-updates feature reads of the configuration, filled by app/
// from the validated Settings.

#include "ws/LiveHub.hpp"

#include <string>

namespace skinpulse::ws {

struct WsOptions {
  /// [storage] redis_url: empty, the in-process event bus; set, Redis pub/sub, so every
  /// instance forwards every instance's updates (ADR 0005).
  std::string redis_url;
  HubOptions hub;
  /// BASE_URL's origin ("https://host[:port]"): a handshake with this Origin and a
  /// signed-in session cookie is signed in and gets its user's alerts (docs/api.md §13).
  std::string signed_in_origin;
};

}  // namespace skinpulse::ws
