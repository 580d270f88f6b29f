#pragma once

// Generic instance keys that the daemon handles itself (which plugin, on or off, polling
// interval, timeout, failure policy). They are never passed to a plugin, are not validated
// against its key table, and a plugin may not declare them.

#include <array>
#include <string_view>

namespace skinpulse {

inline constexpr std::array<std::string_view, 5> kReservedKeys = {
    "plugin", "enabled", "interval_seconds", "timeout_seconds", "required"};

inline bool isReservedKey(std::string_view key) {
  for (std::string_view reserved : kReservedKeys) {
    if (reserved == key) return true;
  }
  return false;
}

}  // namespace skinpulse
