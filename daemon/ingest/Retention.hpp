#pragma once

// Retention: prunes raw price points older than `[storage] retention_days` in the
// background, and rollups older than `[storage] rollup_hourly_days` / `rollup_daily_days`
// (docs/api.md §20). On PostgreSQL whole day partitions are dropped (each series'
// reference point moved out first) and the next days created
// (docs/adr/0026-partitions-and-rollups.md); what is left row by row (SQLite, PostgreSQL's
// small DEFAULT partition) goes in small batches with pauses between them, so the write
// lock is never held long enough to stall an ingestion cycle or a request.

#include "common/PeriodicTask.hpp"
#include "store/PriceStore.hpp"

#include <chrono>
#include <cstdint>

namespace skinpulse::ingest {

class Retention {
 public:
  struct Options {
    int retention_days = 30;
    std::chrono::seconds first_run{60};
    std::chrono::seconds every{3600};
    std::size_t batch = 5000;
    std::chrono::milliseconds pause{50};
    /// The longest metric window (7d): each series keeps its newest point from before
    /// it, the p_ref of percent_change, whatever its age.
    std::int64_t reference_window_seconds = 7 * 86400;
    int rollup_hourly_days = 400;  ///< 0: hourly bars are kept forever
    int rollup_daily_days = 0;     ///< 0: daily bars are kept forever
  };

  struct Pass {
    std::size_t points = 0;  ///< raw points deleted row by row
    store::PriceStore::PartitionPass partitions;
    std::size_t hourly_bars = 0, daily_bars = 0;  ///< rollup bars deleted
  };

  Retention(store::PriceStore& prices, Options options);

  void start() { task_.start(); }
  void stop() { task_.stop(); }

  /// One full pass (all batches); returns how many points were deleted row by row.
  std::size_t prune(std::int64_t now) { return pass(now).points; }
  /// One full pass, everything it did.
  Pass pass(std::int64_t now);

 private:
  void runPass();

  store::PriceStore& prices_;
  Options options_;
  common::PeriodicTask task_;
};

}  // namespace skinpulse::ingest
