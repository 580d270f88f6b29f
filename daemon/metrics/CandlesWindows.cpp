#include "metrics/CandlesWindows.hpp"

#include "store/Ohlcv.hpp"

#include <array>
#include <limits>
#include <vector>

namespace skinpulse::metrics {
namespace {

constexpr std::int64_t kDay = 86400;
constexpr std::int64_t kWeek = 7 * kDay;

constexpr std::array<CandleWindow, 7> kWindows = {{
    {"1h", 3600, "1m"},
    {"24h", kDay, "5m"},
    {"7d", 7 * kDay, "1h"},
    {"30d", 30 * kDay, "1d"},
    {"90d", 90 * kDay, "1d"},
    {"1y", 365 * kDay, "1d"},
    {"all", 0, "1d"},
}};

struct Interval {
  std::string_view name;
  std::int64_t seconds;
};
constexpr std::array<Interval, 5> kIntervals = {{
    {"1m", 60},
    {"5m", 300},
    {"1h", 3600},
    {"1d", kDay},
    {"1w", kWeek},
}};

// Weekly bars only where a window holds several whole weeks.
bool allows(const CandleWindow& window, const Interval& interval) {
  if (interval.seconds < *candleIntervalSeconds(window.default_interval)) return false;
  if (interval.seconds == kWeek) return window.seconds == 0 || window.seconds >= 30 * kDay;
  return true;
}

template <typename Names>
std::string listOf(const Names& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i].name;
  }
  return out;
}

}  // namespace

std::optional<std::int64_t> candleIntervalSeconds(std::string_view name) {
  for (const auto& interval : kIntervals) {
    if (interval.name == name) return interval.seconds;
  }
  return std::nullopt;
}

std::optional<CandleWindow> candleWindow(std::string_view name) {
  for (const auto& window : kWindows) {
    if (window.name == name) return window;
  }
  return std::nullopt;
}

std::optional<std::string> intervalRefusal(const CandleWindow& window, std::string_view name) {
  std::vector<Interval> allowed;
  const Interval* asked = nullptr;
  for (const auto& interval : kIntervals) {
    if (allows(window, interval)) allowed.push_back(interval);
    if (interval.name == name) asked = &interval;
  }
  if (asked == nullptr) return "must be " + candleIntervalNames();
  if (allows(window, *asked)) return std::nullopt;
  // 1w is the coarsest interval: it is refused only for the window's length.
  std::string why = asked->seconds == kWeek
                        ? "is 1w, which needs a window of 30d or longer"
                        : "is finer than the " + std::string(window.name) + " window allows";
  return why + " (window " + std::string(window.name) + " allows " + listOf(allowed) + ")";
}

std::string candleWindowNames() { return listOf(kWindows); }
std::string candleIntervalNames() { return listOf(kIntervals); }

std::int64_t candleRangeStart(const CandleWindow& window, std::int64_t interval, std::int64_t now) {
  if (window.seconds == 0) return std::numeric_limits<std::int64_t>::min();
  return store::bucketStart(now - window.seconds, interval);
}

}  // namespace skinpulse::metrics
