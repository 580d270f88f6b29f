#pragma once

// ValueSnapshots: the value history of docs/api.md §15. One snapshot per user and hour:
// after each import (that user, from the valuation the answers show) and by the hourly
// pass (every user holding anything, set-based: the unit price of each priced catalogue
// item is computed once here, the sums per user are one INSERT … SELECT in the database). The
// pass also prunes what is older than the retention. A snapshot of an hour that has one
// replaces it.

#include "portfolio/PortfolioValuer.hpp"
#include "store/HoldingStore.hpp"
#include "store/SnapshotStore.hpp"

#include <cstdint>
#include <string>

namespace skinpulse::portfolio {

/// The start (Unix seconds) of the hour `at` falls in.
constexpr std::int64_t hourOf(std::int64_t at) { return at - ((at % 3600) + 3600) % 3600; }

struct PassOutcome {
  std::size_t users = 0;   ///< snapshots written
  std::size_t items = 0;   ///< catalogue items with a price
  std::size_t pruned = 0;  ///< snapshots past the retention deleted
};

class ValueSnapshots {
 public:
  /// `retention_seconds`: snapshots of an hour older than now − retention are pruned.
  /// `holdings`, when given, lets the pass count applied items (docs/api.md §23.1): with
  /// the valuer's applied_value_percent above 0, the users holding applied items are
  /// valued one by one after the set-based sums, as their answers value them.
  ValueSnapshots(store::SnapshotStore& store, const PortfolioValuer& valuer,
                 std::int64_t retention_seconds, store::HoldingStore* holdings = nullptr);

  /// The hourly pass at `now`.
  PassOutcome takeAll(std::int64_t now);

  /// The snapshot of one user at `now` from `valuation` (after an import).
  void takeOne(const std::string& user_id, const Valuation& valuation, std::int64_t now);

  /// The user's snapshots taken in (now − window, now], oldest first.
  std::vector<store::SnapshotRecord> history(const std::string& user_id, std::int64_t window,
                                             std::int64_t now);

 private:
  store::SnapshotStore& store_;
  const PortfolioValuer& valuer_;
  std::int64_t retention_seconds_;
  store::HoldingStore* holdings_;
};

}  // namespace skinpulse::portfolio
