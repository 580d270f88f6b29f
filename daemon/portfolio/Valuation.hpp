#pragma once

// Values a portfolio at each item's current_price (docs/api.md §3.1, §6 and §15): a
// holding is quantity × current_price (0 when the item has no price), the portfolio the
// sum. With a cost basis a holding also has its unrealised P&L, and the portfolio the
// totals of docs/api.md §15 ("Totals and holdings without a cost basis"). Holdings come
// out by total_value descending, then item_id ascending.

#include "catalog/Catalog.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "store/Records.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::portfolio {

/// An item's 24 h percent change (docs/api.md §15): the percent_change of its 24h
/// volatility (§3.2), empty when the item has no 24 h series. app/ reads the metrics
/// snapshot; an empty function means no item has one.
using ChangeLookup = std::function<std::optional<double>(std::int64_t item_id)>;

/// A sticker or charm applied to a holding (docs/api.md §23.1), at its item's price.
struct ValuedApplied {
  std::string kind;  ///< "sticker" or "charm"
  int slot = 0;
  std::optional<std::int64_t> item_id = std::nullopt;  ///< empty: no catalogue item
  std::string name;
  std::optional<std::int64_t> current_price = std::nullopt;  ///< cents; empty: no price
};

struct ValuedHolding {
  std::int64_t holding_id = 0;
  std::string account;  ///< the platform id it was imported from ('' before §23)
  std::int64_t item_id = 0;
  std::string market_hash_name;
  std::string variant;  ///< docs/api.md §18: the held variant ("Ruby"), empty for none
  std::int64_t quantity = 0;
  std::int64_t current_price = 0;  ///< cents per unit
  /// quantity × current_price + round(applied_value × applied_value_percent / 100), cents
  std::int64_t total_value = 0;
  std::vector<ValuedApplied> applied;
  std::int64_t applied_value = 0;  ///< quantity × Σ applied current_price, cents
  std::int64_t imported_at = 0;
  std::optional<std::int64_t> cost_basis;   ///< cents per unit
  std::optional<std::int64_t> acquired_at;  ///< Unix seconds
  std::optional<std::int64_t> cost_total;   ///< cost_basis × quantity
  /// (current_price − cost_basis) × quantity, plus the applied value's counted share
  std::optional<std::int64_t> unrealised_pl;
  std::optional<double> change_24h_percent;
};

struct Valuation {
  std::vector<ValuedHolding> holdings;
  std::int64_t total_value = 0;
  std::int64_t applied_value = 0;  ///< Σ of the holdings' applied_value
  int applied_value_percent = 0;   ///< the share of it the totals count (0..100)
  /// Σ cost_basis × quantity over the holdings that have a cost basis (0 when none has).
  std::int64_t cost_total = 0;
  /// Σ of the holdings' unrealised_pl; empty when no holding has a cost basis.
  std::optional<std::int64_t> unrealised_pl;
  /// Value now against value 24 h ago of the holdings whose item has a 24 h change, at
  /// today's quantities; empty when none has.
  std::optional<double> change_24h_percent;
  std::size_t cost_basis_count = 0;  ///< holdings with a cost basis
};

/// The price one unit of `item_id` counts at: its current_price (docs/api.md §3.1) over
/// the latest prices `policy` trusts (PricePolicy::trustedLatest: a flagged newest point
/// replaced by its source's trusted price when outliers are excluded), so an injected
/// spike never moves a portfolio's value; 0 without a price. The valuation and the
/// hourly snapshot pass both use it.
std::int64_t unitPrice(const prices::LatestPrices& latest, std::int64_t item_id,
                       const std::vector<std::string>& order, std::int64_t now,
                       const prices::PricePolicy& policy);

/// `order` is the reference order (PricePolicy::referenceOrder()); `now` decides which
/// sources have two points in the last 24 h. Sums saturate at the int64 limits rather
/// than wrap. `applied_value_percent` (0..100, clamped) is the share of the applied
/// stickers' and charms' value the totals count (docs/api.md §23.1): 0 leaves every total
/// as it was before applied items were known.
Valuation valueHoldings(const std::vector<store::HoldingRecord>& holdings,
                        const catalog::CatalogSnapshot& catalog, const prices::LatestPrices& latest,
                        const std::vector<std::string>& order, std::int64_t now,
                        const prices::PricePolicy& policy, const ChangeLookup& change = {},
                        int applied_value_percent = 0);

/// Units that left an inventory (docs/api.md §23.4), named and with their applied items
/// priced now.
struct ValuedDeparture {
  store::DepartureRecord record;
  std::string market_hash_name;
  std::string variant;  ///< empty for none
  std::vector<ValuedApplied> applied;
  std::int64_t last_value = 0;  ///< last_price × quantity
  /// (sale_price − cost_basis) × quantity; empty unless both are known
  std::optional<std::int64_t> realised_pl;
};

ValuedDeparture valueDeparture(const store::DepartureRecord& departure,
                               const catalog::CatalogSnapshot& catalog,
                               const prices::LatestPrices& latest,
                               const std::vector<std::string>& order, std::int64_t now,
                               const prices::PricePolicy& policy);

/// Σ realised_pl of the departures that have one; empty when none has.
std::optional<std::int64_t> realisedTotal(const std::vector<ValuedDeparture>& departures);

/// round(value × percent / 100), half away from zero, saturating.
std::int64_t appliedShare(std::int64_t value, int percent);

}  // namespace skinpulse::portfolio
