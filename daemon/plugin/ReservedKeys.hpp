#pragma once

// Generic instance keys that the daemon handles itself (which plugin, on or off, polling
// interval, timeout, failure policy, the User-Agent of its HTTP requests: UserAgent.hpp). They are
// never passed to a plugin, are not validated against its key table, and a plugin may not declare
// them.

#include <array>
#include <string_view>

namespace skinpulse::plugin {

inline constexpr std::array<std::string_view, 6> kReservedKeys = {
    "plugin", "enabled", "interval_seconds", "timeout_seconds", "required", "user_agent"};

/// A source instance's price kind (ask, bid, sale, reference; docs/adr/0011-sdk-abi-1-2.md):
/// the daemon's for every source plugin of ABI 1.2 or later and for older ones that do not
/// declare a key of that name themselves (such a plugin keeps its own meaning of it).
inline constexpr std::string_view kSourceKindKey = "kind";

inline bool isReservedKey(std::string_view key) {
  for (std::string_view reserved : kReservedKeys) {
    if (reserved == key) return true;
  }
  return false;
}

}  // namespace skinpulse::plugin
