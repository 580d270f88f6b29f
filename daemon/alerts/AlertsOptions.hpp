#pragma once

// AlertsOptions: what the alerts feature reads of the configuration: the [alerts] keys of
// its table (alertsOptionTable), and what app/ fills in from other sections (the sources'
// intervals for freshness, the reference order of current_price).

#include "common/OptionTable.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace skinpulse::alerts {

struct AlertsOptions {
  int max_rules_per_user = 100;
  bool allow_private_targets = false;
  int delivery_workers = 2;
  int retry_base_seconds = 60;
  std::string telegram_api_url = "https://api.telegram.org";

  std::vector<std::string> reference_sources;  ///< [metrics] reference_sources
  std::vector<std::string> enabled_sources;    ///< in configuration order
  /// interval_seconds of each source instance: a latest point is fresh for 3 intervals
  /// (docs/api.md §12; unknown sources: 24 h).
  std::map<std::string, std::int64_t> source_intervals;
  std::string ca_location = "/etc/ssl/certs";  ///< trusted CAs for https targets
};

const OptionTable<AlertsOptions>& alertsOptionTable();

}  // namespace skinpulse::alerts
