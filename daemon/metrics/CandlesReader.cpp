#include "metrics/CandlesReader.hpp"

#include <cstdint>

namespace skinpulse::metrics {
namespace {

constexpr std::int64_t kHour = 3600;

}  // namespace

CandlesReader::CandlesReader(store::PriceStore& prices, const prices::PricePolicy& policy,
                             int raw_retention_days)
    : prices_(prices),
      policy_(policy),
      raw_retention_seconds_(std::int64_t{raw_retention_days} * 86400) {}

CandleOrigin CandlesReader::originOf(const CandleWindow& window, std::int64_t interval,
                                     std::int64_t now) const {
  if (interval < kHour) return CandleOrigin::kRawPoints;  // no rollup is that fine
  const bool within_raw_retention =
      window.seconds != 0 &&
      candleRangeStart(window, interval, now) >= now - raw_retention_seconds_;
  if (!policy_.excludeOutliers() && within_raw_retention) return CandleOrigin::kRawPoints;
  return interval == kHour ? CandleOrigin::kHourlyRollups : CandleOrigin::kDailyRollups;
}

CandlesRead CandlesReader::read(std::int64_t item_id, const std::string& source,
                                const CandleWindow& window, std::int64_t interval,
                                std::int64_t now) const {
  CandlesRead out;
  out.origin = originOf(window, interval, now);
  const std::int64_t from = candleRangeStart(window, interval, now);
  if (out.origin == CandleOrigin::kRawPoints) {
    // history() reads time > since; raw windows are bounded, so from - 1 cannot overflow.
    auto points = prices_.history(item_id, from - 1, source);
    std::erase_if(points, [this](const store::PricePoint& point) { return policy_.drops(point); });
    out.candles = candlesFromPoints(points, interval, from);
  } else {
    const auto level = out.origin == CandleOrigin::kHourlyRollups ? store::RollupLevel::kHour
                                                                  : store::RollupLevel::kDay;
    out.candles = candlesFromBars(prices_.rollups(item_id, source, level, from), interval, from);
  }
  if (window.seconds != 0 && !out.candles.empty()) {
    out.valid_until = out.candles.front().start + interval + window.seconds;
  }
  return out;
}

}  // namespace skinpulse::metrics
