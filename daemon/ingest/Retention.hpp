#pragma once

// Retention: prunes raw price points older than `[storage] retention_days` in the
// background, in small batches with pauses between them, so the write lock is never held
// long enough to stall an ingestion cycle or a request.

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
  };

  Retention(store::PriceStore& prices, Options options);

  void start() { task_.start(); }
  void stop() { task_.stop(); }

  /// One full pass (all batches); returns how many points were deleted.
  std::size_t prune(std::int64_t now);

 private:
  void runPass();

  store::PriceStore& prices_;
  Options options_;
  common::PeriodicTask task_;
};

}  // namespace skinpulse::ingest
