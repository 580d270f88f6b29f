#include "store/Ohlcv.hpp"

#include <algorithm>

namespace skinpulse::store {
namespace {

constexpr std::int64_t kWeek = 7 * 86400;
// 1970-01-05 00:00 UTC, the first Monday after the epoch.
constexpr std::int64_t kFirstMonday = 4 * 86400;

std::int64_t floorTo(std::int64_t time, std::int64_t interval) {
  std::int64_t start = time / interval * interval;
  if (start > time) start -= interval;
  return start;
}

}  // namespace

std::int64_t rollupSeconds(RollupLevel level) { return level == RollupLevel::kHour ? 3600 : 86400; }

std::int64_t bucketStart(std::int64_t time, std::int64_t interval) {
  if (interval == kWeek) return floorTo(time - kFirstMonday, kWeek) + kFirstMonday;
  return floorTo(time, interval);
}

OhlcvBar barOf(std::int64_t start, std::int64_t time, std::int64_t price, std::int64_t volume) {
  OhlcvBar bar;
  bar.start = start;
  bar.open = bar.high = bar.low = bar.close = price;
  bar.volume = volume;
  bar.samples = 1;
  bar.open_time = bar.close_time = time;
  return bar;
}

void mergeBar(OhlcvBar& into, const OhlcvBar& from) {
  if (from.samples == 0) return;
  if (into.samples == 0) {
    const std::int64_t start = into.start;
    into = from;
    into.start = start;
    return;
  }
  if (from.open_time < into.open_time) {
    into.open = from.open;
    into.open_time = from.open_time;
  }
  if (from.close_time > into.close_time) {
    into.close = from.close;
    into.close_time = from.close_time;
  }
  into.high = std::max(into.high, from.high);
  into.low = std::min(into.low, from.low);
  into.volume += from.volume;
  into.samples += from.samples;
}

}  // namespace skinpulse::store
