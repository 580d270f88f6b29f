#include "prices/Freshness.hpp"

#include "prices/KindSeries.hpp"

#include <algorithm>

namespace skinpulse::prices {

Freshness::Freshness(const std::vector<SourceProfile>& sources) {
  for (const auto& source : sources) {
    // A disabled instance is not polled: its points are as old as a backfill's.
    if (!source.enabled) continue;
    max_age_.emplace_back(
        source.name, source.fresh_seconds > 0
                         ? static_cast<std::int64_t>(source.fresh_seconds)
                         : kIntervalsFresh * static_cast<std::int64_t>(source.interval_seconds));
    shortest_ = std::min(shortest_, max_age_.back().second);
  }
}

std::int64_t Freshness::maxAge(std::string_view source) const {
  for (const auto& [name, age] : max_age_) {
    if (name == source) return age;
  }
  if (const auto series = kindSeriesOf(source)) return maxAge(series->instance);
  return kUnpolledMaxAge;
}

}  // namespace skinpulse::prices
