#pragma once

#include "store/ConnectionPool.hpp"
#include "store/SnapshotStore.hpp"

namespace skinpulse::store {

/// SnapshotStore on SQLite or PostgreSQL.
class SqlSnapshotStore final : public SnapshotStore {
 public:
  explicit SqlSnapshotStore(ConnectionPool& pool) : pool_(pool) {}

  void putSnapshot(const std::string& user_id, const SnapshotRecord& snapshot) override;
  std::size_t snapshotAll(const std::vector<std::int64_t>& item_ids,
                          const std::vector<std::int64_t>& prices, std::int64_t hour,
                          std::int64_t taken_at) override;
  std::vector<SnapshotRecord> snapshotsOf(const std::string& user_id, std::int64_t since) override;
  std::size_t pruneSnapshots(std::int64_t before) override;

 private:
  ConnectionPool& pool_;
};

}  // namespace skinpulse::store
