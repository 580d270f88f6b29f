#pragma once

// CycleFollower: where a standby instance stands in the polling instance's cycle log
// (PriceStore::lastCycleSeq / cyclesAfter; docs/operations.md, "Run a fleet"). Each call
// to next() hands over the points of the cycles logged since the last one applied, so
// the standby's caches and metrics trail the polling instance by at most one refresh,
// without rebuilding the week of history. It only reads the log and keeps the position;
// IngestCycle applies the points.
//
// A full reload is still needed when the log cannot be trusted to hold every cycle since
// the position: the position is unknown, the log went backwards (a restored database),
// the standby is further behind than one read takes (reloading is then cheaper than
// replaying), or it has not looked for longer than the log is kept (a pruned gap).

#include "store/PriceStore.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace skinpulse::ingest {

struct CycleFollowerOptions {
  /// Cycles read at once; further behind than this, a full reload is cheaper.
  std::size_t max_cycles = 64;
  /// Longer than this without a look, the log (kept one day) may have lost cycles
  /// since the position.
  std::chrono::steady_clock::duration max_silence = std::chrono::hours(12);
};

class CycleFollower {
 public:
  using Clock = std::chrono::steady_clock;
  using Options = CycleFollowerOptions;

  enum class Result {
    kUpToDate,  ///< nothing logged since the position
    kFollowed,  ///< `points` hold the cycles since; the position moved past them
    kGap,       ///< a full reload is needed; call caughtUp() before loading
  };
  struct Step {
    Result result = Result::kUpToDate;
    std::vector<store::PricePoint> points;  ///< by time (kFollowed only)
  };

  /// Reads the position from `store` (caughtUp()); `store` must outlive the follower.
  explicit CycleFollower(store::PriceStore& store, Options options = {},
                         Clock::time_point now = Clock::now());

  /// Every cycle logged so far counts as applied: call it BEFORE loading the caches in
  /// full (a cycle logged in between is then replayed, never lost), and after storing a
  /// cycle of our own. Throws what the store throws (the database is down).
  void caughtUp(Clock::time_point now = Clock::now());

  /// The cycles logged since the position, or what to do instead.
  Step next(Clock::time_point now = Clock::now());

  /// The position: the last cycle applied (unset before the first successful read).
  std::optional<std::int64_t> position() const { return seq_; }

 private:
  store::PriceStore& store_;
  Options options_;
  std::optional<std::int64_t> seq_;
  Clock::time_point last_look_;
};

}  // namespace skinpulse::ingest
