#pragma once

// AlertsOptions: what the alerts feature reads of the configuration: the [alerts] keys of
// its table (alertsOptionTable). Which latest prices a condition trusts, and the
// reference order of current_price, are the price policy's (prices/PricePolicy.hpp).

#include "common/OptionTable.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace skinpulse::alerts {

struct AlertsOptions {
  int max_rules_per_user = 100;
  bool allow_private_targets = false;
  int delivery_workers = 4;
  int max_workers_per_user = 0;  ///< 0 = half the delivery workers, rounded up
  int retry_base_seconds = 60;
  int delivery_retention_days = 30;  ///< 0 = keep finished deliveries for ever
  std::string telegram_api_url = "https://api.telegram.org";

  std::string ca_location = "/etc/ssl/certs";  ///< trusted CAs for https targets
};

const common::OptionTable<AlertsOptions>& alertsOptionTable();

}  // namespace skinpulse::alerts
