#pragma once

// The JSON of portfolio depth (docs/api.md §23): applied items, departures ("left") and
// the per-account summary, shared by GET /api/v1/portfolio and the left endpoints.

#include "common/Json.hpp"
#include "portfolio/Money.hpp"
#include "portfolio/Valuation.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::portfolio {

/// `[{"kind","slot","item_id"|null,"name","current_price"|null}, …]`.
void writeAppliedList(common::JsonWriter& json, const std::vector<ValuedApplied>& applied,
                      const Money& money);

/// The Departure object of docs/api.md §23.4.
void writeDeparture(common::JsonWriter& json, const ValuedDeparture& departure, const Money& money);

/// One linked account's line of the Portfolio's `accounts`.
struct AccountSummary {
  std::string account;
  std::string label = {};
  std::int64_t item_count = 0;
  std::int64_t total_value = 0;  ///< cents
  std::optional<std::int64_t> last_imported_at = std::nullopt;
};

void writeAccounts(common::JsonWriter& json, const std::vector<AccountSummary>& accounts,
                   const Money& money);

}  // namespace skinpulse::portfolio
