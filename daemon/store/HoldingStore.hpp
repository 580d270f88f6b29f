#pragma once

#include "store/Records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store {

/// Portfolio holdings, their cost bases and import metadata. Thread-safe.
class HoldingStore {
 public:
  virtual ~HoldingStore() = default;

  /// In ONE transaction: upserts `holdings` (item_id → quantity, imported_at = now),
  /// deletes the user's holdings whose item is not in `holdings`, and records
  /// last_imported_at = now. Cost bases are not touched: a holding that stays keeps its
  /// own, one that leaves and comes back gets it back (docs/adr/0017-portfolio-insight.md).
  /// On error nothing changes and the exception propagates.
  virtual void replaceHoldings(const std::string& user_id,
                               const std::vector<HoldingRecord>& holdings, std::int64_t now) = 0;

  /// The user's holdings ordered by item_id, with their cost fields.
  virtual std::vector<HoldingRecord> holdingsOf(const std::string& user_id) = 0;
  virtual std::optional<std::int64_t> lastImportedAt(const std::string& user_id) = 0;
  /// Every item anybody holds, ascending (polling order of rate-limited sources).
  virtual std::vector<std::int64_t> heldItemIds() = 0;

  /// In one transaction: applies `change` to the cost fields of the user's holding of
  /// `item_id` and returns the holding as it now is; empty (and nothing written) when the
  /// user does not hold the item. Fields left both empty remove the cost row.
  virtual std::optional<HoldingRecord> changeCost(const std::string& user_id, std::int64_t item_id,
                                                  const CostChange& change, std::int64_t now) = 0;

  /// In ONE transaction: sets the cost basis of each of `costs` (holding_costs, and the
  /// copy on every holding of the item, as changeCost does), and its acquired_at when
  /// given (else the stored one stays). The caller has checked that the user holds each
  /// item; a cost of an item not held is kept for when it comes back, like any cost row.
  /// On error nothing changes and the exception propagates.
  virtual void setCosts(const std::string& user_id, const std::vector<ItemCost>& costs,
                        std::int64_t now) = 0;
};

}  // namespace skinpulse::store
