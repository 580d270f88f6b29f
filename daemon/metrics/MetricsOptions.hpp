#pragma once

// MetricsOptions: what the metrics feature reads of the configuration: the [metrics]
// keys of its table (metricsOptionTable), and the enabled sources, which app/ fills in.

#include "common/OptionTable.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace skinpulse::metrics {

struct MetricsOptions {
  std::vector<std::string> reference_sources;  ///< [metrics] reference_sources
  std::vector<std::string> enabled_sources;    ///< in configuration order
  bool exclude_outliers = true;                ///< [quality] exclude_outliers
  /// A quiet daemon still slides its windows: recompute when no cycle has for this long.
  std::chrono::seconds refresh_period{60};
};

const OptionTable<MetricsOptions>& metricsOptionTable();

}  // namespace skinpulse::metrics
