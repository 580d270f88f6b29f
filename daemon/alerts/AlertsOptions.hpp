#pragma once

// AlertsOptions: what the alerts feature reads of the configuration: the [alerts] keys of
// its table (alertsOptionTable), and what app/ fills in from other sections (the sources'
// intervals for freshness, the reference order of current_price).

#include "common/OptionTable.hpp"
#include "prices/Freshness.hpp"

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
  /// Which latest prices a condition may trust (docs/api.md §12): freshness per source and
  /// [quality] exclude_outliers, as the item endpoints apply them. Set by the runtime.
  prices::Freshness freshness;
  bool exclude_outliers = true;
  std::string ca_location = "/etc/ssl/certs";  ///< trusted CAs for https targets
};

const OptionTable<AlertsOptions>& alertsOptionTable();

}  // namespace skinpulse::alerts
