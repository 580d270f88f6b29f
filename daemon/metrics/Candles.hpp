#pragma once

// Candles (docs/api.md §10): the stored points of one series folded into OHLCV bars of
// a fixed interval. Windows 1h, 24h, 7d, 30d each have a default interval (1m, 5m, 1h,
// 1d); any coarser one is allowed, a finer one is refused.
//
// Bars are computed from the store's points of the window (history() is indexed by item
// and time): the points carry the volume the metrics engine's buckets do not keep, and
// 30 daily bars of a month need no daily level in the engine. A 7-day window at 1h is
// ~170 bars per source instead of the ~8,000 raw points of /history.

#include "currency/Conversion.hpp"
#include "store/Records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::metrics {

struct CandleWindow {
  std::string_view name;              ///< "1h", "24h", "7d", "30d"
  std::int64_t seconds;               ///< the window's length
  std::string_view default_interval;  ///< "1m", "5m", "1h", "1d"
};

/// Seconds of an interval name ("1m", "5m", "1h", "1d"); empty for anything else.
std::optional<std::int64_t> candleIntervalSeconds(std::string_view name);
/// The window named `name`; empty for anything else.
std::optional<CandleWindow> candleWindow(std::string_view name);

struct Candle {
  std::int64_t time = 0;  ///< bucket start (a multiple of the interval, UTC)
  std::int64_t open = 0, high = 0, low = 0, close = 0;
  std::int64_t volume = 0;
  std::int64_t samples = 0;
};

/// Folds `points` (one source; ordered by time, as PriceStore::history gives them) into
/// bars of `interval` seconds; points before `since` are skipped, empty bars omitted.
std::vector<Candle> buildCandles(const std::vector<store::PricePoint>& points,
                                 std::int64_t interval, std::int64_t since);

/// The body of docs/api.md §10: {"item_id","source","window","interval","candles":[...]}.
std::string renderCandles(std::int64_t item_id, const std::optional<std::string>& source,
                          std::string_view window, std::string_view interval,
                          const std::vector<Candle>& candles,
                          const currency::Conversion& money = {});

}  // namespace skinpulse::metrics
