#include "metrics/Candles.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"

#include <algorithm>
#include <array>

namespace skinpulse::metrics {
namespace {

constexpr std::array<CandleWindow, 4> kCandleWindows = {{
    {"1h", 3600, "1m"},
    {"24h", 86400, "5m"},
    {"7d", 7 * 86400, "1h"},
    {"30d", 30 * 86400, "1d"},
}};

// Floor division (times are never negative in practice; this keeps bars aligned if so).
std::int64_t floorTo(std::int64_t time, std::int64_t interval) {
  std::int64_t start = time / interval * interval;
  if (start > time) start -= interval;
  return start;
}

}  // namespace

std::optional<std::int64_t> candleIntervalSeconds(std::string_view name) {
  if (name == "1m") return 60;
  if (name == "5m") return 300;
  if (name == "1h") return 3600;
  if (name == "1d") return 86400;
  return std::nullopt;
}

std::optional<CandleWindow> candleWindow(std::string_view name) {
  for (const auto& window : kCandleWindows) {
    if (window.name == name) return window;
  }
  return std::nullopt;
}

std::vector<Candle> buildCandles(const std::vector<store::PricePoint>& points,
                                 std::int64_t interval, std::int64_t since) {
  std::vector<Candle> out;
  if (interval <= 0) return out;
  for (const auto& point : points) {
    if (point.time < since) continue;
    const std::int64_t start = floorTo(point.time, interval);
    if (out.empty() || out.back().time != start) {
      if (!out.empty() && start < out.back().time) continue;  // out of order: not expected
      Candle candle;
      candle.time = start;
      candle.open = candle.high = candle.low = candle.close = point.price;
      out.push_back(candle);
    }
    auto& candle = out.back();
    candle.high = std::max(candle.high, point.price);
    candle.low = std::min(candle.low, point.price);
    candle.close = point.price;
    candle.volume += point.volume;
    ++candle.samples;
  }
  return out;
}

std::string renderCandles(std::int64_t item_id, const std::optional<std::string>& source,
                          std::string_view window, std::string_view interval,
                          const std::vector<Candle>& candles, const currency::Conversion& money) {
  common::JsonWriter json;
  json.beginObject().key("item_id").value(item_id).key("source");
  if (source) {
    json.value(*source);
  } else {
    json.null();
  }
  json.key("window")
      .value(std::string(window))
      .key("interval")
      .value(std::string(interval))
      .key("currency")
      .value(money.code())
      .key("candles")
      .beginArray();
  for (const auto& c : candles) {
    json.beginObject()
        .key("time")
        .value(time::formatIso8601(c.time))
        .key("open")
        .value(money.amount(c.open))
        .key("high")
        .value(money.amount(c.high))
        .key("low")
        .value(money.amount(c.low))
        .key("close")
        .value(money.amount(c.close))
        .key("volume")
        .value(c.volume)
        .key("samples")
        .value(c.samples)
        .endObject();
  }
  json.endArray().endObject();
  return json.take();
}

}  // namespace skinpulse::metrics
