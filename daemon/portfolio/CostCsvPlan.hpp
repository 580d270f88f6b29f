#pragma once

// CostCsvPlan: what an uploaded cost-basis CSV (docs/api.md §23.3) would change, decided
// before anything is written — each row matched to a catalogue item the user holds or
// refused with a code, and the matched rows combined per item (quantity-weighted mean
// cost in USD cents, earliest date). The dry run answers the plan; the apply writes its
// costs() in one transaction (store::HoldingStore::setCosts).
//
// Columns, by header name, case-insensitively (extra columns are ignored):
// market_hash_name, quantity, cost_each (or cost_basis, the export's name), currency,
// acquired_at; optional item_id and variant, which pick the item when valid (the export's
// variant rows round-trip). A missing required column is InvalidCsv on the header line.

#include "catalog/Catalog.hpp"
#include "currency/RateBook.hpp"
#include "portfolio/CostCsvReader.hpp"
#include "store/Records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::portfolio {

/// One data row and its verdict.
struct CostCsvRow {
  std::size_t line = 0;
  std::string market_hash_name;
  std::optional<std::int64_t> item_id;    ///< the item it names, when it names one
  std::optional<std::int64_t> quantity;   ///< when readable
  std::optional<std::int64_t> cost_each;  ///< minor units of `currency`, when readable
  std::string currency;                   ///< upper case; USD for an empty cell
  std::optional<std::int64_t> acquired_at;
  std::string code;    ///< empty: matched; else the refusal (unknown_item, not_held, ...)
  std::string detail;  ///< why, for a refused row
  std::optional<std::int64_t> usd_cents;  ///< cost_each in USD cents, for a matched row

  bool matched() const { return code.empty(); }
};

/// One item the matched rows set.
struct CostCsvItem {
  std::int64_t item_id = 0;
  std::string market_hash_name;
  std::int64_t quantity = 0;    ///< units over its matched rows
  std::int64_t cost_basis = 0;  ///< USD cents per unit
  std::optional<std::int64_t> acquired_at;
  std::optional<std::int64_t> previous_cost_basis;  ///< USD cents, what is stored now
};

struct CostCsvPlan {
  std::vector<CostCsvRow> rows;    ///< file order
  std::vector<CostCsvItem> items;  ///< order of each item's first matched row

  std::size_t matchedRows() const;
  std::size_t refusedRows() const { return rows.size() - matchedRows(); }
  /// What setCosts writes.
  std::vector<store::ItemCost> costs() const;
};

struct CostCsvContext {
  const catalog::CatalogSnapshot& catalogue;
  const currency::RateBook& rates;
  /// The user's holdings (every account): what is held, and the cost basis stored now.
  const std::vector<store::HoldingRecord>& holdings;
  std::int64_t now = 0;
};

/// The plan of `table`. Throws InvalidCsv (on the header's line) when a required column
/// is missing or a column is named twice.
CostCsvPlan planCostCsv(const CsvTable& table, const CostCsvContext& context);

}  // namespace skinpulse::portfolio
