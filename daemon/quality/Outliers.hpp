#pragma once

// Outliers (docs/api.md §12, docs/adr/0014-cross-market-quality.md): flags the points of a
// cycle or a backfill as they arrive, before they are stored.
//  - With 3 or more fresh sources (the point's own included), a point is an outlier when
//    it lies outside [m / f, m × f], m the median of the other sources' fresh, unflagged
//    latest prices.
//  - With fewer, it is an outlier when it lies outside [p / f, p × f] of its source's
//    previous trusted (unflagged) price, unless it confirms its source's previous point:
//    when that point is flagged and the new one lies within [q / f, q × f] of its price q,
//    the two agree on a new level, so the previous point's flag is cleared and the new
//    point is judged against it. A flag is thus provisional until the source's next point
//    arrives, and final after it.
// Freshness is taken at the judged point's time. Points older than their source's newest
// point are not judged (a late backfill of old history); a point already stored (same
// time as the newest) keeps the stored flag.

#include "prices/LatestPrices.hpp"
#include "quality/Freshness.hpp"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace skinpulse::quality {

/// True when `price` lies outside [reference / factor, reference × factor].
bool outsideBand(std::int64_t price, double reference, double factor);

class OutlierJudge {
 public:
  /// `before`: the latest prices the points arrive on top of (empty: a first backfill).
  OutlierJudge(const Freshness& freshness, double factor,
               std::shared_ptr<const LatestPrices::Snapshot> before);

  /// Sets `outlier` on every point, judging them in the order given, each against the
  /// state before it and the points judged earlier. A confirmed point of `points` itself
  /// is unflagged in place; the confirmed points stored before are returned, flag
  /// cleared, for the caller to clear in the store and fold into its caches.
  std::vector<PricePoint> judge(std::vector<PricePoint>& points);

 private:
  std::vector<SourceLatest>& entriesOf(std::int64_t item_id);

  const Freshness& freshness_;
  double factor_;
  std::shared_ptr<const LatestPrices::Snapshot> before_;
  /// Items touched so far: their entries with the judged points folded in.
  std::unordered_map<std::int64_t, std::vector<SourceLatest>> touched_;
  std::vector<double> others_;  ///< scratch
};

}  // namespace skinpulse::quality
