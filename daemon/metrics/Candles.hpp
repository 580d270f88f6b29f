#pragma once

// Candles (docs/api.md §10): OHLCV bars of one series at a fixed interval, folded with
// store/Ohlcv's barOf and mergeBar — the fold the store's rollups are maintained with, so
// a candle built from raw points is the same as one built from hourly or daily rollups
// (docs/api.md §10). Both folds below are order-independent: points and bars may come in
// any order (a backfill stores history out of order).
//
// Intervals and windows: metrics/CandlesWindows.hpp; which of the two folds serves a
// request: metrics/CandlesReader.hpp.

#include "currency/Conversion.hpp"
#include "store/Ohlcv.hpp"
#include "store/Records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::metrics {

/// A candle is a bar: `start` is the bucket start the API calls `time`.
using Candle = store::OhlcvBar;

/// Folds `points` (one series) into bars of `interval` seconds (bucketStart's buckets:
/// weeks start on Monday); points before `from` are skipped. Bars ordered by start, empty
/// buckets omitted.
std::vector<Candle> candlesFromPoints(const std::vector<store::PricePoint>& points,
                                      std::int64_t interval, std::int64_t from);

/// Folds `bars` (rollups of one series, each inside one bucket of `interval`: hourly bars
/// into 1h, daily into 1d or 1w) into bars of `interval` seconds; bars starting before
/// `from` are skipped. Bars ordered by start.
std::vector<Candle> candlesFromBars(const std::vector<store::OhlcvBar>& bars, std::int64_t interval,
                                    std::int64_t from);

/// The body of docs/api.md §10: {"item_id","source","window","interval","currency",
/// "candles":[{"time","open","high","low","close","volume","samples"}, ...]}.
std::string renderCandles(std::int64_t item_id, const std::optional<std::string>& source,
                          std::string_view window, std::string_view interval,
                          const std::vector<Candle>& candles,
                          const currency::Conversion& money = {});

}  // namespace skinpulse::metrics
