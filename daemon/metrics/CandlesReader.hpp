#pragma once

// CandlesReader: reads the candles of one series from the store, from the raw points or
// from the rollups (docs/api.md §10):
// - 1m and 5m bars exist only in the raw points (windows 1h and 24h, always inside the
//   raw retention);
// - 1h bars are the hourly rollups, 1d the daily ones, 1w the daily ones folded into
//   Monday weeks — a year is 365 rows instead of ~500,000 points;
// - except that when the price policy keeps flagged points, a window that lies inside the raw
//   retention is folded from the raw points, flagged ones included, as the operator asked
//   (rollups never hold a flagged point).
// The two origins give the same bars wherever both exist (metrics/Candles.hpp), so the
// choice is one of cost, never of result. Thread-safe as the store is.

#include "metrics/Candles.hpp"
#include "metrics/CandlesWindows.hpp"
#include "prices/PricePolicy.hpp"
#include "store/PriceStore.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::metrics {

enum class CandleOrigin { kRawPoints, kHourlyRollups, kDailyRollups };

struct CandlesRead {
  std::vector<Candle> candles;
  CandleOrigin origin = CandleOrigin::kRawPoints;
  /// When the candles stop being exact though no point is stored: the moment the first
  /// bar's bucket leaves the window (INT64_MAX for none, or for the window "all").
  std::int64_t valid_until = INT64_MAX;
};

class CandlesReader {
 public:
  /// `raw_retention_days`: [storage] retention_days, how far back raw points reach.
  CandlesReader(store::PriceStore& prices, const prices::PricePolicy& policy,
                int raw_retention_days);

  /// Where the bars of `window` at `interval` seconds come from at `now`.
  CandleOrigin originOf(const CandleWindow& window, std::int64_t interval, std::int64_t now) const;

  /// The bars of (item, source) for `window` at `interval` seconds, at `now`.
  CandlesRead read(std::int64_t item_id, const std::string& source, const CandleWindow& window,
                   std::int64_t interval, std::int64_t now) const;

 private:
  store::PriceStore& prices_;
  const prices::PricePolicy& policy_;
  std::int64_t raw_retention_seconds_;
};

}  // namespace skinpulse::metrics
