#pragma once

#include "store/ConnectionPool.hpp"
#include "store/HoldingStore.hpp"
#include "store/WriteTransaction.hpp"

namespace skinpulse::store {

/// HoldingStore on SQLite or PostgreSQL. The departures' half is in
/// SqlHoldingDepartures.cpp.
class SqlHoldingStore final : public HoldingStore {
 public:
  explicit SqlHoldingStore(ConnectionPool& pool) : pool_(pool) {}

  using HoldingStore::replaceHoldings;
  void replaceHoldings(const std::string& user_id, const std::string& account,
                       const std::vector<HoldingRecord>& holdings,
                       const std::map<std::int64_t, std::int64_t>& last_prices,
                       std::int64_t now) override;
  bool replaceLinkedHoldings(const std::string& user_id, const std::string& account,
                             const std::vector<HoldingRecord>& holdings,
                             const std::map<std::int64_t, std::int64_t>& last_prices,
                             std::int64_t now) override;
  std::vector<HoldingRecord> holdingsOf(const std::string& user_id) override;
  std::optional<std::int64_t> lastImportedAt(const std::string& user_id) override;
  std::map<std::string, std::int64_t> importedAtByAccount(const std::string& user_id) override;
  std::vector<std::int64_t> heldItemIds() override;
  std::vector<std::string> usersHoldingApplied() override;
  std::optional<HoldingRecord> changeCost(const std::string& user_id, std::int64_t item_id,
                                          const CostChange& change, std::int64_t now) override;
  void forgetAccount(const std::string& user_id, const std::string& account) override;

  std::vector<DepartureRecord> departuresOf(const std::string& user_id) override;
  std::optional<DepartureRecord> setSalePrice(const std::string& user_id, std::int64_t departure_id,
                                              std::optional<std::int64_t> sale_price,
                                              std::int64_t now) override;
  bool deleteDeparture(const std::string& user_id, std::int64_t departure_id) override;

  /// In SqlHoldingCosts.cpp.
  void setCosts(const std::string& user_id, const std::vector<ItemCost>& costs,
                std::int64_t now) override;

 private:
  ConnectionPool& pool_;
};

/// What belongs to one account of a user besides its link, deleted in the caller's
/// transaction: its holdings and its import metadata (departures and cost bases stay).
/// Used by forgetAccount and by SqlUserStore::unlinkGameId, so that an unlink removes the
/// link and what it brought in one transaction.
void deleteAccountRows(WriteTransaction& tx, const std::string& user_id,
                       const std::string& account);

}  // namespace skinpulse::store
