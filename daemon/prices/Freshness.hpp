#pragma once

// Freshness (docs/api.md §12): a source's latest point of an item is fresh while it is
// younger than 3 × that source's interval_seconds, or its `fresh_seconds` when set (a
// source that revisits an item far less often than it polls). The series of another
// kind of an instance (`NAME-<kind>`, prices/KindSeries.hpp) is as fresh as the
// instance's. Sources the daemon does not poll (backfilled, disabled or unknown names)
// get 24 hours. Immutable after construction: any thread may ask.

#include "skinpulse/sdk/types.hpp"

#include "store/Records.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skinpulse::prices {

/// What the daemon knows of a configured source instance.
struct SourceProfile {
  std::string name;
  std::string plugin;
  sdk::PriceKind kind = sdk::PriceKind::kAsk;
  bool enabled = false;
  int interval_seconds = 60;
  /// [source.NAME] fee_percent: what selling there costs, for the net spread (§13).
  double fee_percent = 0.0;
  /// [source.NAME] fresh_seconds: overrides 3 × interval_seconds when set (> 0).
  int fresh_seconds = 0;
};

inline constexpr std::int64_t kUnpolledMaxAge = 86400;
inline constexpr std::int64_t kIntervalsFresh = 3;

class Freshness {
 public:
  Freshness() = default;
  explicit Freshness(const std::vector<SourceProfile>& sources);

  /// The age (seconds) from which a point of `source` is stale.
  std::int64_t maxAge(std::string_view source) const;
  /// The smallest maxAge of any source: a younger point is fresh whatever its source.
  std::int64_t shortestMaxAge() const { return shortest_; }
  /// Younger than maxAge at `now`. A point from the future counts as fresh.
  bool fresh(std::string_view source, std::int64_t time, std::int64_t now) const {
    // Most points asked about are younger than every limit: no name lookup for them.
    return now - time < shortest_ || now - time < maxAge(source);
  }
  bool fresh(const store::PricePoint& point, std::int64_t now) const {
    return fresh(point.source, point.time, now);
  }

 private:
  /// Enabled sources only. A daemon has a handful of sources and this is asked for every
  /// price of every cycle and request: a linear scan of short names beats hashing them.
  std::vector<std::pair<std::string, std::int64_t>> max_age_;
  std::int64_t shortest_ = kUnpolledMaxAge;
};

}  // namespace skinpulse::prices
