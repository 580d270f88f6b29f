#pragma once

// CacheInvalidation: the cycle observer that keeps the history cache
// (prices/HistoryCache) exact. After a cycle it drops the bodies of every item the cycle
// stored points for; after a reload from the store (a backfill, a standby catching up with
// the polling instance) it drops them all. Added as the first observer, so the cache is
// exact before the live updates announce the cycle. Runs on the ingestion thread; quick
// (one lock, one map range per touched item); never throws.

#include "ingest/CycleObserver.hpp"
#include "prices/HistoryCache.hpp"

namespace skinpulse::ingest {

class CacheInvalidation final : public CycleObserver {
 public:
  /// `cache` must outlive the observer.
  explicit CacheInvalidation(prices::HistoryCache& cache) : cache_(cache) {}

  void onCycle(const CycleUpdate& update) override;
  void onReload() override { cache_.invalidateAll(); }

 private:
  prices::HistoryCache& cache_;
};

}  // namespace skinpulse::ingest
