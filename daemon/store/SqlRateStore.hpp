#pragma once

#include "store/ConnectionPool.hpp"
#include "store/RateStore.hpp"

namespace skinpulse::store {

/// RateStore on SQLite or PostgreSQL.
class SqlRateStore final : public RateStore {
 public:
  explicit SqlRateStore(ConnectionPool& pool) : pool_(pool) {}

  void storeRates(const std::vector<RateRecord>& rates) override;
  std::vector<RateRecord> allRates() override;

 private:
  ConnectionPool& pool_;
};

}  // namespace skinpulse::store
