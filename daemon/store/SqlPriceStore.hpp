#pragma once

#include "store/ConnectionPool.hpp"
#include "store/PriceStore.hpp"

namespace skinpulse::store {

/// PriceStore on SQLite or PostgreSQL.
class SqlPriceStore final : public PriceStore {
 public:
  explicit SqlPriceStore(ConnectionPool& pool) : pool_(pool) {}

  std::size_t insert(const std::vector<PricePoint>& points) override;
  std::vector<PricePoint> history(std::int64_t item_id, std::int64_t since,
                                  const std::optional<std::string>& source) override;
  std::vector<PricePoint> pointsSince(std::int64_t since) override;
  void scanSince(std::int64_t since, std::size_t chunk, const PointChunkVisitor& visit) override;
  std::vector<Latest> latestPerItemSource() override;
  std::size_t deleteOlderThan(std::int64_t before, std::size_t limit) override;
  std::vector<std::string> sourceNames() override;

 private:
  ConnectionPool& pool_;
};

}  // namespace skinpulse::store
