#pragma once

// MetricsOptions: what the metrics feature reads of the configuration ([metrics] keys
// and the enabled sources), filled by app/ from the validated Settings.

#include <chrono>
#include <string>
#include <vector>

namespace skinpulse::metrics {

struct MetricsOptions {
  std::vector<std::string> reference_sources;  ///< [metrics] reference_sources
  std::vector<std::string> enabled_sources;    ///< in configuration order
  /// A quiet daemon still slides its windows: recompute when no cycle has for this long.
  std::chrono::seconds refresh_period{60};
};

}  // namespace skinpulse::metrics
