#pragma once

#include "store/ConnectionPool.hpp"
#include "store/PriceStore.hpp"
#include "store/WriteTransaction.hpp"

namespace skinpulse::store {

/// PriceStore on SQLite or PostgreSQL.
class SqlPriceStore final : public PriceStore {
 public:
  explicit SqlPriceStore(ConnectionPool& pool) : pool_(pool) {}

  std::size_t insert(const std::vector<PricePoint>& points) override;
  std::size_t insertBackfill(const std::vector<PricePoint>& points) override;
  std::int64_t backfillRevision() override;
  using PriceStore::openBackfill;
  std::unique_ptr<BackfillWriter> openBackfill(std::int64_t raw_from) override;
  void clearOutliers(const std::vector<PricePoint>& points) override;
  std::int64_t newestTime() override;
  std::vector<PricePoint> history(std::int64_t item_id, std::int64_t since,
                                  const std::optional<std::string>& source) override;
  std::vector<PricePoint> pointsSince(std::int64_t since) override;
  void scanSince(std::int64_t since, std::size_t chunk, const PointChunkVisitor& visit) override;
  std::vector<Latest> latestPerItemSource() override;
  std::size_t deleteOlderThan(std::int64_t before, std::int64_t keep_reference_at,
                              std::size_t limit) override;
  PartitionPass maintainPartitions(std::int64_t now, std::int64_t before,
                                   std::int64_t keep_reference_at) override;
  std::vector<PricePoint> newestBefore(std::int64_t before) override;
  std::vector<std::string> sourceNames() override;
  std::vector<OhlcvBar> rollups(std::int64_t item_id, const std::string& source, RollupLevel level,
                                std::int64_t from) override;
  std::size_t deleteRollupsBefore(RollupLevel level, std::int64_t before) override;
  std::int64_t lastCycleSeq() override;
  FollowedCycles cyclesAfter(std::int64_t seq, std::size_t max_cycles) override;

 private:
  std::size_t insertPoints(const std::vector<PricePoint>& points, bool backfill);
  /// One ingest_cycles entry for a cycle's insert, in its transaction; prunes the log.
  void logCycle(WriteTransaction& tx, const std::vector<PricePoint>& points, std::size_t inserted);
  std::int64_t prunedCycleSeq(Poco::Data::Session& session);

  ConnectionPool& pool_;
};

}  // namespace skinpulse::store
