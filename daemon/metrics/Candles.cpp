#include "metrics/Candles.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"

#include <map>

namespace skinpulse::metrics {
namespace {

// The buckets of one request, keyed and so ordered by start.
class Buckets {
 public:
  explicit Buckets(std::int64_t from) : from_(from) {}
  void add(std::int64_t start, const store::OhlcvBar& bar) {
    if (start < from_) return;
    auto [bucket, added] = buckets_.try_emplace(start);
    if (added) bucket->second.start = start;
    store::mergeBar(bucket->second, bar);
  }
  std::vector<Candle> take() {
    std::vector<Candle> out;
    out.reserve(buckets_.size());
    for (auto& entry : buckets_) out.push_back(entry.second);
    return out;
  }

 private:
  std::int64_t from_;
  std::map<std::int64_t, Candle> buckets_;
};

}  // namespace

std::vector<Candle> candlesFromPoints(const std::vector<store::PricePoint>& points,
                                      std::int64_t interval, std::int64_t from) {
  if (interval <= 0) return {};
  Buckets buckets(from);
  for (const auto& point : points) {
    const std::int64_t start = store::bucketStart(point.time, interval);
    buckets.add(start, store::barOf(start, point.time, point.price, point.volume));
  }
  return buckets.take();
}

std::vector<Candle> candlesFromBars(const std::vector<store::OhlcvBar>& bars, std::int64_t interval,
                                    std::int64_t from) {
  if (interval <= 0) return {};
  Buckets buckets(from);
  for (const auto& bar : bars) buckets.add(store::bucketStart(bar.start, interval), bar);
  return buckets.take();
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
        .value(time::formatIso8601(c.start))
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
