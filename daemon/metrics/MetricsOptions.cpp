#include "metrics/MetricsOptions.hpp"

namespace skinpulse::metrics {

const common::OptionTable<MetricsOptions>& metricsOptionTable() {
  static const common::OptionTable<MetricsOptions> table = {
      {{"metrics.reference_sources", common::OptionType::kList, 0, 0, nullptr, "",
        "Sources whose prices metrics and current_price prefer, in order (comma list). Empty: "
        "the enabled sources in configuration order, then any other source alphabetically "
        "(docs/api.md §3.1)."},
       &MetricsOptions::reference_sources},
  };
  return table;
}

}  // namespace skinpulse::metrics
