#pragma once

#include "store/Records.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store {

/// Portfolio holdings, their cost bases, the units that left (departures) and import
/// metadata. A holding is one (user, account, item, applied_key) (docs/api.md §23,
/// docs/adr/0030-portfolio-depth.md); a cost basis is one (user, item) and applies to
/// every holding of that item. Thread-safe.
class HoldingStore {
 public:
  virtual ~HoldingStore() = default;

  /// In ONE transaction, for `account` of the user only (other accounts are untouched):
  /// - upserts `holdings` (identity (item_id, applied_key) → quantity, applied,
  ///   imported_at = now; a repeated identity sums its quantities; applied_key is derived
  ///   from `applied` when that is not empty), deletes the account's holdings whose
  ///   identity is not in `holdings`; a holding that stays keeps its holding_id;
  /// - writes a departure of the difference for every identity whose quantity fell or
  ///   vanished, at the item's price in `last_prices` (item_id → cents per unit, 0 when
  ///   absent) with copies of the user's cost fields of the item;
  /// - withdraws, for every identity whose quantity rose, departures of that identity
  ///   without a sale price, newest first, by quantity (moved out and back is no sale);
  /// - records the account's last_imported_at = now.
  /// Cost bases are not touched: a holding that stays keeps its own, one that leaves and
  /// comes back gets it back (docs/adr/0017-portfolio-insight.md). On error nothing
  /// changes and the exception propagates.
  virtual void replaceHoldings(const std::string& user_id, const std::string& account,
                               const std::vector<HoldingRecord>& holdings,
                               const std::map<std::int64_t, std::int64_t>& last_prices,
                               std::int64_t now) = 0;

  /// replaceHoldings, but only while `account` is still linked to the user: the link is
  /// read in the same transaction (its row locked against an unlink on PostgreSQL; SQLite
  /// has one writer). False, and nothing written, when the account was unlinked while it
  /// was being fetched, so an unlink never finds its holdings written back after it.
  virtual bool replaceLinkedHoldings(const std::string& user_id, const std::string& account,
                                     const std::vector<HoldingRecord>& holdings,
                                     const std::map<std::int64_t, std::int64_t>& last_prices,
                                     std::int64_t now) = 0;

  /// The one-account form of before docs/api.md §23: the account '' and no prices for
  /// departures. Kept for tools and tests that have no platform id.
  void replaceHoldings(const std::string& user_id, const std::vector<HoldingRecord>& holdings,
                       std::int64_t now) {
    replaceHoldings(user_id, "", holdings, {}, now);
  }

  /// The user's holdings of every account, ordered by item_id, account, applied_key,
  /// with their cost fields.
  virtual std::vector<HoldingRecord> holdingsOf(const std::string& user_id) = 0;
  /// The newest last_imported_at of the user's accounts; empty before the first import.
  virtual std::optional<std::int64_t> lastImportedAt(const std::string& user_id) = 0;
  /// account → its last_imported_at, for every account the user imported.
  virtual std::map<std::string, std::int64_t> importedAtByAccount(const std::string& user_id) = 0;
  /// Every item anybody holds, and every catalogue item applied to one, ascending (polling
  /// order of rate-limited sources).
  virtual std::vector<std::int64_t> heldItemIds() = 0;
  /// Every user with a holding that has something applied (the hourly pass values them
  /// one by one when applied value counts; docs/api.md §23.1), ascending.
  virtual std::vector<std::string> usersHoldingApplied() = 0;

  /// In one transaction: applies `change` to the cost fields of the user's `item_id`
  /// (every holding of it, in every account) and returns the item's holdings combined
  /// (quantities summed, the newest imported_at; account and applied kept when there is
  /// one holding only); empty (and nothing written) when the user does not hold the
  /// item. Fields left both empty remove the cost row.
  virtual std::optional<HoldingRecord> changeCost(const std::string& user_id, std::int64_t item_id,
                                                  const CostChange& change, std::int64_t now) = 0;

  /// In one transaction: deletes the holdings and the import metadata of one account of
  /// the user. Its departures and the user's cost bases stay. (An unlink does the same in
  /// the transaction that deletes the link: UserStore::unlinkGameId.)
  virtual void forgetAccount(const std::string& user_id, const std::string& account) = 0;

  /// The user's departures, newest first (left_at, then departure_id, descending).
  virtual std::vector<DepartureRecord> departuresOf(const std::string& user_id) = 0;
  /// Sets (or, empty, clears) the sale price of one of the user's departures and returns
  /// it as it now is; empty when the user has no departure of that id.
  virtual std::optional<DepartureRecord> setSalePrice(const std::string& user_id,
                                                      std::int64_t departure_id,
                                                      std::optional<std::int64_t> sale_price,
                                                      std::int64_t now) = 0;
  /// Deletes one of the user's departures (it was not sold); false when there is none.
  virtual bool deleteDeparture(const std::string& user_id, std::int64_t departure_id) = 0;

  /// In ONE transaction: sets the cost basis of each of `costs` (holding_costs, and the
  /// copy on every holding of the item, as changeCost does), and its acquired_at when
  /// given (else the stored one stays). The caller has checked that the user holds each
  /// item; a cost of an item not held is kept for when it comes back, like any cost row.
  /// On error nothing changes and the exception propagates.
  virtual void setCosts(const std::string& user_id, const std::vector<ItemCost>& costs,
                        std::int64_t now) = 0;
};

}  // namespace skinpulse::store
