#pragma once

// The three metric windows of docs/api.md §3.2 and the bucket width each one is
// pre-aggregated at.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace skinpulse::metrics {

struct WindowShape {
  std::string_view name;        ///< "1h", "24h", "7d": the `window` query value
  std::int64_t seconds;         ///< W
  std::int64_t bucket_seconds;  ///< bucket width B; W is a multiple of it
};

inline constexpr std::size_t kWindowCount = 3;
inline constexpr std::array<WindowShape, kWindowCount> kWindows = {{
    {"1h", 3600, 60},
    {"24h", 86400, 300},
    {"7d", 7 * 86400, 3600},
}};

/// Index into kWindows of the window named `name`; empty for any other text.
inline std::optional<std::size_t> windowIndex(std::string_view name) {
  for (std::size_t i = 0; i < kWindows.size(); ++i) {
    if (kWindows[i].name == name) return i;
  }
  return std::nullopt;
}

/// Index of the window of `seconds` (3600, 86400, 604800); empty otherwise.
inline std::optional<std::size_t> windowIndexOfSeconds(std::int64_t seconds) {
  for (std::size_t i = 0; i < kWindows.size(); ++i) {
    if (kWindows[i].seconds == seconds) return i;
  }
  return std::nullopt;
}

}  // namespace skinpulse::metrics
