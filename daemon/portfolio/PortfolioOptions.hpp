#pragma once

// PortfolioOptions: what the portfolio feature reads of the configuration: the
// [portfolio] keys of its table (portfolioOptionTable). Which prices value a holding is
// the price policy's (prices/PricePolicy.hpp), not an option here.

#include "common/OptionTable.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::portfolio {

struct PortfolioOptions {
  std::string inventory_url = "https://steamcommunity.com/inventory";
  std::int64_t inventory_max_bytes = 8388608;
  int inventory_timeout_seconds = 20;  ///< per inventory page
  int import_cooldown_seconds = 600;
  /// Requests per minute to the game platform (the origin of inventory_url), shared by
  /// imports and source plugins (net/RequestBudget.hpp); app/ builds the budget from it.
  int gameid_requests_per_minute = 20;
  /// Seconds between two passes of value snapshots (one row per user and hour).
  int snapshot_interval_seconds = 3600;
  /// Days of value snapshots kept (docs/api.md §15: a year).
  int history_retention_days = 365;
  /// Percent (0..100) of the applied stickers' and charms' value the portfolio's totals
  /// count (docs/api.md §23.1); 0 keeps the totals as they were before.
  int applied_value_percent = 0;
};

const common::OptionTable<PortfolioOptions>& portfolioOptionTable();

}  // namespace skinpulse::portfolio
