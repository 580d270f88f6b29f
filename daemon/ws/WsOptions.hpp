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
};

}  // namespace skinpulse::ws
