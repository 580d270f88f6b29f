#pragma once

// UserFrames: sends a text frame to one user's signed-in live connections. The WebSocket
// module implements it and provides it in the registry (module/Registry.hpp); the alerts
// module delivers `{"type":"alert"}` frames through it without including ws/.

#include <cstddef>
#include <string>

namespace skinpulse::events {

class UserFrames {
 public:
  virtual ~UserFrames() = default;
  /// Queues `frame` on every signed-in connection of `user_id`; how many took it (0: the
  /// user has none open here).
  virtual std::size_t sendToUser(const std::string& user_id, const std::string& frame) = 0;
};

}  // namespace skinpulse::events
