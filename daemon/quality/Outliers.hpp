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

#include "prices/Freshness.hpp"
#include "prices/LatestPrices.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace skinpulse::quality {

/// True when `price` lies outside [reference / factor, reference × factor].
bool outsideBand(std::int64_t price, double reference, double factor);

/// Judges the points of one batch as LatestPrices folds them in (its FoldHook): each
/// point against its item's entries just before it, so the batch's earlier points count.
class OutlierJudge {
 public:
  /// `points` is the batch the hook's indices refer to; it must outlive the judge.
  OutlierJudge(const prices::Freshness& freshness, double factor,
               std::vector<store::PricePoint>& points);

  /// Sets points[index].outlier. A flagged newest entry it confirms is unflagged in
  /// `entries`, and in `points` when it is one of them; else it is kept for confirmed().
  void operator()(std::vector<prices::SourceLatest>& entries, std::size_t index);
  /// The hook to hand to LatestPrices::prepare / foldInto.
  prices::LatestPrices::FoldHook hook() {
    return [this](std::vector<prices::SourceLatest>& entries, std::size_t index) {
      (*this)(entries, index);
    };
  }
  /// Points stored before the batch that a point confirmed, flag cleared: to be cleared
  /// in the store, and handed to the cycle observers like new points.
  const std::vector<store::PricePoint>& confirmed() const { return confirmed_; }

 private:
  std::int64_t maxAge(const std::string& source);

  const prices::Freshness& freshness_;
  double factor_;
  std::int64_t always_fresh_;  ///< Freshness::shortestMaxAge(): younger needs no lookup
  std::vector<store::PricePoint>& points_;
  std::vector<store::PricePoint> confirmed_;
  /// Flagged points of the batch by item (rare), to unflag one a later point confirms.
  std::unordered_multimap<std::int64_t, std::size_t> flagged_;
  std::vector<double> others_;                                  ///< scratch
  std::vector<std::pair<std::string, std::int64_t>> max_ages_;  ///< per source name seen
};

/// Flags a batch on top of `before` (a backfill, tests) in the order given; returns the
/// confirmed points stored before it (OutlierJudge::confirmed()).
std::vector<store::PricePoint> judgeBatch(const prices::Freshness& freshness, double factor,
                                          const prices::LatestPrices::Snapshot& before,
                                          std::vector<store::PricePoint>& points);

}  // namespace skinpulse::quality
