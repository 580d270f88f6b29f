#pragma once

// CycleObserver: what runs after an ingestion cycle has been stored and folded into the
// latest-price cache. The metrics engine and the live-update hub hang off this, in the
// order they are added (metrics first, so the volatility frames carry this cycle's
// numbers). Observers run on the ingestion thread: they must be quick and must not throw
// into the cycle (a throwing observer is logged and the others still run).

#include "store/PriceStore.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace skinpulse::ingest {

struct CycleUpdate {
  std::int64_t time = 0;                         ///< when the cycle was stored, Unix seconds
  const std::vector<store::PricePoint>& points;  ///< every normalised point of the cycle
};

/// What an observer computed for a cycle while the cycle was being stored
/// (CycleObserver::prepareCycle). commit() makes it visible; it runs after the store
/// committed, in observer order. Destroyed without commit(), the store failed: the
/// observer forgets the cycle (nothing of it may ever become visible).
class PreparedCycle {
 public:
  virtual ~PreparedCycle() = default;
  virtual void commit() = 0;
};

class CycleObserver {
 public:
  virtual ~CycleObserver() = default;
  virtual void onCycle(const CycleUpdate& update) = 0;
  /// Observers whose work can overlap the cycle's store transaction (docs/adr/0021,
  /// "nothing is published unless stored"): called on a helper thread while the ingestion
  /// thread stores the points, with `source_names` = the latest prices' sources once the
  /// cycle is in (the cache itself commits after the store). Must make nothing visible;
  /// returns what commit() publishes, and onCycle() is then not called for the cycle.
  /// nullptr (the default): onCycle() after the store, as before. Must not depend on an
  /// earlier observer's onCycle() of the same cycle.
  virtual std::unique_ptr<PreparedCycle> prepareCycle(
      const CycleUpdate& /*update*/, const std::vector<std::string>& /*source_names*/) {
    return nullptr;
  }
  /// Whether onCycle() also runs for the cycles a standby instance follows: the points the
  /// polling instance stored (ingest/CycleFollower.hpp). Derived state (metrics) says yes;
  /// side effects the polling instance already had (alerts fired, live updates published
  /// through Redis) keep the default no, or every instance would repeat them.
  virtual bool runsOnFollowedCycles() const { return false; }
  /// Points arrived outside the daemon's cycles (a backfill) and the latest-price cache
  /// was reloaded from the store: rebuild whatever was derived from the stored history.
  virtual void onReload() {}
};

}  // namespace skinpulse::ingest
