#pragma once

// Values a portfolio at each item's current_price (docs/api.md §3.1 and §6): a holding
// is quantity × current_price (0 when the item has no price), the portfolio the sum.
// Holdings come out by total_value descending, then item_id ascending.

#include "catalog/Catalog.hpp"
#include "prices/LatestPrices.hpp"
#include "store/Records.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::portfolio {

struct ValuedHolding {
  std::int64_t item_id = 0;
  std::string market_hash_name;
  std::int64_t quantity = 0;
  std::int64_t current_price = 0;  ///< cents per unit
  std::int64_t total_value = 0;    ///< cents
  std::int64_t imported_at = 0;
};

struct Valuation {
  std::vector<ValuedHolding> holdings;
  std::int64_t total_value = 0;
};

/// `order` is the reference order (referenceOrder()); `now` decides which sources have
/// two points in the last 24 h. Sums saturate at INT64_MAX rather than wrap. With
/// `exclude_outliers`, a flagged newest point counts at its source's trusted price
/// (withoutOutliers()), so an injected spike never moves a portfolio's value.
Valuation valueHoldings(const std::vector<HoldingRecord>& holdings, const CatalogSnapshot& catalog,
                        const LatestPrices& latest, const std::vector<std::string>& order,
                        std::int64_t now, bool exclude_outliers = true);

}  // namespace skinpulse::portfolio
