#pragma once

// The daily partitions of price_points on PostgreSQL (migration 010,
// docs/adr/0026-partitions-and-rollups.md): native RANGE partitions on time, one per UTC
// day (price_points_pYYYYMMDD), plus price_points_default and, after the migration of an
// existing table, price_points_legacy [MINVALUE, its day). The daemon keeps a few days
// ahead, and retention drops whole days instead of deleting rows.

#include "store/ConnectionPool.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store::postgres {

struct Partition {
  std::string name;
  /// [from, to) in Unix seconds; nullopt is MINVALUE / MAXVALUE. Both empty and
  /// is_default for the DEFAULT partition.
  std::optional<std::int64_t> from, to;
  bool is_default = false;
};

/// "price_points_p20261128" for the UTC day holding `day_start`.
std::string dayPartitionName(std::int64_t day_start);

class PartitionKeeper {
 public:
  explicit PartitionKeeper(ConnectionPool& pool) : pool_(pool) {}

  /// The partitions of price_points, by lower bound (the DEFAULT one last).
  std::vector<Partition> list();

  /// Creates the missing day partitions of the UTC days from the one holding `from` to
  /// the one holding `to`, each in its own transaction; returns how many. Rows the
  /// DEFAULT partition holds for a new day move into it in the same transaction (a
  /// partition cannot be attached over rows of its range in DEFAULT).
  std::size_t ensureDays(std::int64_t from, std::int64_t to);

  /// Drops the legacy partition (migration 010) while it holds no row: on a fresh
  /// database it covers every past day up to two midnights ahead and would take the rows
  /// the day partitions are for. Returns whether it was dropped.
  bool retireEmptyLegacy();

  struct DropPass {
    std::size_t dropped = 0;  ///< partitions dropped
    std::size_t kept = 0;     ///< reference points moved to DEFAULT
    std::size_t rows = 0;     ///< rows the dropped partitions held (estimate)
    bool blocked = false;     ///< a lock was not granted in time: retried next pass
  };
  /// Drops every partition whose range ends at or before `before` (day partitions and
  /// the legacy one). First, in the same transaction, each series' newest point in it is
  /// moved to DEFAULT when the series has no point after it up to `keep_reference_at`
  /// (the p_ref of docs/api.md §3.2), found through the daily rollups: a series needs it
  /// unless a later daily bar opens at or before keep_reference_at.
  DropPass dropBefore(std::int64_t before, std::int64_t keep_reference_at);

 private:
  ConnectionPool& pool_;
};

}  // namespace skinpulse::store::postgres
