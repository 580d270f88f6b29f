#pragma once

// Portfolio value snapshots (docs/api.md §15): one row per user and hour, an upsert
// replacing an earlier snapshot of the same hour. Thread-safe.

#include "store/Records.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::store {

class SnapshotStore {
 public:
  virtual ~SnapshotStore() = default;

  /// Upserts one user's snapshot of `snapshot.hour`.
  virtual void putSnapshot(const std::string& user_id, const SnapshotRecord& snapshot) = 0;

  /// The hourly pass, set-based: for every user holding anything, one snapshot of `hour`
  /// taken at `taken_at`, total_value = Σ quantity × price (the price of `item_ids[i]` is
  /// `prices[i]`; an item not listed counts 0) and cost_total = Σ quantity × cost_basis
  /// over the holdings that have one. The prices go to the database once, the sums are
  /// one INSERT … SELECT … GROUP BY in one transaction. Returns the users written.
  virtual std::size_t snapshotAll(const std::vector<std::int64_t>& item_ids,
                                  const std::vector<std::int64_t>& prices, std::int64_t hour,
                                  std::int64_t taken_at) = 0;

  /// The user's snapshots taken after `since`, oldest first.
  virtual std::vector<SnapshotRecord> snapshotsOf(const std::string& user_id,
                                                  std::int64_t since) = 0;

  /// Deletes every snapshot of an hour before `before`; returns how many.
  virtual std::size_t pruneSnapshots(std::int64_t before) = 0;
};

}  // namespace skinpulse::store
