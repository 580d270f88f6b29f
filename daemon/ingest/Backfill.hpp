#pragma once

// Backfill: loads price history from JSON Lines
//   {"market_hash_name":"...","source":"...","time":"2026-11-22T10:15:00Z","price":123,"volume":4}
// with, optionally, "kind" (ask, the default, bid, sale, reference) and "listings" (a count)
// through the ingestion normaliser into the price store in one transaction (all or
// nothing). Lines that cannot be stored (unknown item, bad price, bad time) are counted
// by reason and skipped, never guessed.

#include "catalog/Catalog.hpp"
#include "quality/Freshness.hpp"
#include "store/PriceStore.hpp"

#include <cstdint>
#include <istream>
#include <map>
#include <string>

namespace skinpulse {

struct BackfillResult {
  std::size_t read = 0;                         ///< non-empty lines
  std::size_t stored = 0;                       ///< new points
  std::size_t duplicates = 0;                   ///< points already stored (same item, source, time)
  std::map<std::string, std::size_t> rejected;  ///< reason → count
  std::vector<PricePoint> points;               ///< the valid points, for caches
};

/// The outlier rules of docs/api.md §12, as the daemon's configuration sets them.
struct BackfillOutliers {
  quality::Freshness freshness;
  double factor = 3.0;
};

/// `now` bounds observation times as for polled sources (at most five minutes ahead).
/// With `outliers`, the points are flagged as a cycle would flag them, in time order, on
/// top of the store's latest prices (a confirmed stored point is unflagged in the store).
BackfillResult backfill(std::istream& in, const CatalogSnapshot& catalog, PriceStore& prices,
                        std::int64_t now, const BackfillOutliers* outliers = nullptr);

}  // namespace skinpulse
