#pragma once

// Ohlcv: one bar of open, high, low, close, volume and samples, and the two folds every
// bar in the daemon is built with: a point into a bar, a bar into a coarser bar. The
// rollups the store keeps (docs/api.md §20) and the candles the API serves (§10) are
// folded by these same functions, which is why a candle is the same whether it was built
// from raw points or from rollups.

#include <cstdint>

namespace skinpulse::store {

/// The levels of rollup the store keeps, and the candle intervals built on them.
enum class RollupLevel { kHour, kDay };

struct OhlcvBar {
  std::int64_t start = 0;  ///< bucket start, Unix seconds (UTC)
  std::int64_t open = 0, high = 0, low = 0, close = 0;
  std::int64_t volume = 0;
  std::int64_t samples = 0;
  /// The times of the points that set open and close: a later fold (an out-of-order
  /// backfill, a merge of two bars) needs them to know which price comes first and last.
  std::int64_t open_time = 0, close_time = 0;

  bool operator==(const OhlcvBar&) const = default;
};

/// Seconds of a rollup level's bucket (3600, 86400).
std::int64_t rollupSeconds(RollupLevel level);

/// The start of the bucket of `interval` seconds holding `time`. Buckets of a week start on
/// Monday 00:00 UTC, as a trader's week does; every other interval is aligned to the epoch.
std::int64_t bucketStart(std::int64_t time, std::int64_t interval);

/// A bar of one point.
OhlcvBar barOf(std::int64_t start, std::int64_t time, std::int64_t price, std::int64_t volume);

/// Folds `from` into `into` (both of the same series; `into.samples == 0` means empty):
/// the open of the earlier, the close of the later, extremes, sums. Order-independent, so
/// points and bars may arrive in any order. On a tie of times the bar already there wins.
void mergeBar(OhlcvBar& into, const OhlcvBar& from);

}  // namespace skinpulse::store
