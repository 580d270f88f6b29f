#pragma once

#include "store/ConnectionPool.hpp"
#include "store/HoldingStore.hpp"

namespace skinpulse::store {

/// HoldingStore on SQLite or PostgreSQL.
class SqlHoldingStore final : public HoldingStore {
 public:
  explicit SqlHoldingStore(ConnectionPool& pool) : pool_(pool) {}

  void replaceHoldings(const std::string& user_id, const std::vector<HoldingRecord>& holdings,
                       std::int64_t now) override;
  std::vector<HoldingRecord> holdingsOf(const std::string& user_id) override;
  std::optional<std::int64_t> lastImportedAt(const std::string& user_id) override;
  std::vector<std::int64_t> heldItemIds() override;
  std::optional<HoldingRecord> changeCost(const std::string& user_id, std::int64_t item_id,
                                          const CostChange& change, std::int64_t now) override;
  /// In SqlHoldingCosts.cpp.
  void setCosts(const std::string& user_id, const std::vector<ItemCost>& costs,
                std::int64_t now) override;

 private:
  ConnectionPool& pool_;
};

}  // namespace skinpulse::store
