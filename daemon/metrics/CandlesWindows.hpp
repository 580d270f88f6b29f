#pragma once

// CandlesWindows: the windows and intervals candles are served in (docs/api.md §10) and
// which interval each window allows. Windows 1h, 24h, 7d, 30d, 90d, 1y and all; intervals
// 1m, 5m, 1h, 1d and 1w. Each window has a default interval (the finest it allows) and
// accepts any coarser one, except that 1w needs a window of 30d or more (a shorter one
// holds at most two weekly bars, both partial views of the week).
//
// A bar is always a whole bucket: a window covers the buckets whose start is at or after
// bucketStart(now - window, interval), so the first bar is never a fragment cut at the
// window's edge — and a bar built from raw points equals one built from rollups.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::metrics {

struct CandleWindow {
  std::string_view name;              ///< "1h", "24h", "7d", "30d", "90d", "1y", "all"
  std::int64_t seconds;               ///< the window's length; 0 for "all" (no lower bound)
  std::string_view default_interval;  ///< the finest interval the window allows
};

/// Seconds of an interval name ("1m", "5m", "1h", "1d", "1w"); empty for anything else.
std::optional<std::int64_t> candleIntervalSeconds(std::string_view name);
/// The window named `name`; empty for anything else.
std::optional<CandleWindow> candleWindow(std::string_view name);

/// Why `interval` is not allowed on `window` (unknown, or not for this window), as the detail of a
/// 400 invalid_parameter naming the intervals that are; empty when it is allowed.
std::optional<std::string> intervalRefusal(const CandleWindow& window, std::string_view interval);

/// "1h, 24h, 7d, 30d, 90d, 1y or all": for the refusal of an unknown window.
std::string candleWindowNames();
/// "1m, 5m, 1h, 1d or 1w": for the refusal of an unknown interval.
std::string candleIntervalNames();

/// The start of the first bucket `window` covers at `now` with buckets of `interval`
/// seconds: bucketStart(now - window, interval); INT64_MIN for the window "all".
std::int64_t candleRangeStart(const CandleWindow& window, std::int64_t interval, std::int64_t now);

}  // namespace skinpulse::metrics
