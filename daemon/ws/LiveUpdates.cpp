#include "ws/LiveUpdates.hpp"

#include "common/Time.hpp"
#include "http/Json.hpp"

namespace skinpulse::ws {

std::string LiveUpdates::renderPrice(const PricePoint& point) {
  http::JsonWriter json;
  json.beginObject()
      .key("item_id")
      .value(point.item_id)
      .key("source")
      .value(point.source)
      .key("price")
      .value(point.price)
      .key("volume")
      .value(point.volume)
      .key("time")
      .value(time::formatIso8601(point.time))
      .endObject();
  return json.take();
}

void LiveUpdates::onCycle(const CycleUpdate& update) {
  if (update.points.empty()) return;
  std::vector<events::UpdateEntry> prices;
  prices.reserve(update.points.size());
  for (const auto& point : update.points) {
    prices.push_back(events::UpdateEntry{point.item_id, renderPrice(point)});
  }
  auto batch = std::make_shared<const events::UpdateBatch>("prices", std::move(prices));
  bus_.publish(batch);
  if (!volatility_) return;
  std::vector<events::UpdateEntry> metrics;
  const auto& entries = batch->entries();  // ordered by item: one lookup per item
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i > 0 && entries[i].item_id == entries[i - 1].item_id) continue;
    if (auto object = volatility_(entries[i].item_id)) {
      metrics.push_back(events::UpdateEntry{entries[i].item_id, std::move(*object)});
    }
  }
  if (metrics.empty()) return;
  bus_.publish(std::make_shared<const events::UpdateBatch>("volatility", std::move(metrics)));
}

}  // namespace skinpulse::ws
