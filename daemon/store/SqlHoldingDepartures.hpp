#pragma once

// The departures' half of SqlHoldingStore (docs/api.md §23.4): what replaceHoldings
// writes and withdraws inside its transaction. Internal to the store.

#include "store/Records.hpp"
#include "store/WriteTransaction.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace skinpulse::store {

/// What makes two holdings of one account the same: the item and what is applied.
struct HoldingIdentity {
  std::int64_t item_id = 0;
  std::string applied_key;

  auto operator<=>(const HoldingIdentity&) const = default;
};

/// Inserts `departures` (account, identity, applied, quantity, left_at, last_price set)
/// with copies of the user's cost fields of each item.
void writeDepartures(WriteTransaction& tx, const std::string& user_id,
                     const std::vector<DepartureRecord>& departures);

/// For each (identity, units) that came back to `account`: reduces the identity's
/// departures without a sale price by `units`, newest first, deleting the ones used up.
void withdrawDepartures(WriteTransaction& tx, const std::string& user_id,
                        const std::string& account,
                        const std::vector<std::pair<HoldingIdentity, std::int64_t>>& returned);

}  // namespace skinpulse::store
