#pragma once

// PortfolioValuer: values holdings the way every portfolio answer does — the price
// policy's reference order over the sources seen and its outlier rule, the items' 24 h
// changes — so GET /api/v1/portfolio, the CSV and the value snapshots agree.

#include "catalog/Catalog.hpp"
#include "portfolio/Valuation.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"

#include <optional>
#include <string>
#include <vector>

namespace skinpulse::portfolio {

class PortfolioValuer {
 public:
  /// Every reference must outlive the valuer.
  /// `applied_value_percent`: [portfolio] applied_value_percent, the share of applied
  /// items' value that value() counts when it is not told another (docs/api.md §23.1).
  PortfolioValuer(const catalog::Catalog& catalog, const prices::LatestPrices& latest,
                  const prices::PricePolicy& policy, ChangeLookup change = {},
                  int applied_value_percent = 0);

  /// `applied_value_percent`: the share of applied stickers' and charms' value the
  /// totals count (docs/api.md §23.1); empty: the configured one.
  Valuation value(const std::vector<store::HoldingRecord>& holdings, std::int64_t now,
                  std::optional<int> applied_value_percent = std::nullopt) const;

  /// The configured share (0..100).
  int appliedValuePercent() const { return applied_value_percent_; }

  /// The departures named and their applied items priced (docs/api.md §23.4), in order.
  std::vector<ValuedDeparture> departures(const std::vector<store::DepartureRecord>& departures,
                                          std::int64_t now) const;

  /// unitPrice() of each item, in the same order.
  std::vector<std::int64_t> unitPrices(const std::vector<std::int64_t>& item_ids,
                                       std::int64_t now) const;

  struct PriceList {
    std::vector<std::int64_t> item_ids;  ///< ascending
    std::vector<std::int64_t> prices;    ///< unitPrice() of each, never 0
  };
  /// Every catalogue item that has a price (unitPrice() > 0). Cheaper for the hourly
  /// pass than asking the database which items are held: pricing the whole catalogue
  /// takes a few milliseconds, a DISTINCT over every holding hundreds.
  PriceList pricedItems(std::int64_t now) const;

 private:
  std::vector<std::string> order() const;

  const catalog::Catalog& catalog_;
  const prices::LatestPrices& latest_;
  const prices::PricePolicy& policy_;
  ChangeLookup change_;
  int applied_value_percent_;
};

}  // namespace skinpulse::portfolio
