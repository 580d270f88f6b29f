#pragma once

// MetricsOptions: what the metrics feature reads of the configuration: the [metrics]
// keys of its table (metricsOptionTable). [metrics] reference_sources is bound here but
// read through the price policy (prices/PricePolicy.hpp), which app/ builds from it.

#include "common/OptionTable.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace skinpulse::metrics {

struct MetricsOptions {
  std::vector<std::string> reference_sources;  ///< [metrics] reference_sources
  /// A quiet daemon still slides its windows: recompute when no cycle has for this long.
  std::chrono::seconds refresh_period{60};
};

const common::OptionTable<MetricsOptions>& metricsOptionTable();

}  // namespace skinpulse::metrics
