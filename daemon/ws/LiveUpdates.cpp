#include "ws/LiveUpdates.hpp"

#include "common/Time.hpp"
#include "http/Json.hpp"

#include <charconv>

namespace skinpulse::ws {

namespace {

void appendNumber(std::string& out, std::int64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

// One price entry; `time` is the point's time already formatted (a cycle's points
// mostly share it, so it is formatted once).
std::string renderPrice(const PricePoint& point, std::string_view time) {
  std::string out;
  out.reserve(96 + point.source.size());
  out += R"({"item_id":)";
  appendNumber(out, point.item_id);
  out += R"(,"source":)";
  http::appendJsonString(out, point.source);
  out += R"(,"price":)";
  appendNumber(out, point.price);
  out += R"(,"volume":)";
  appendNumber(out, point.volume);
  out += R"(,"time":")";
  out += time;
  out += R"("})";
  return out;
}

}  // namespace

std::string LiveUpdates::renderPrice(const PricePoint& point) {
  return ws::renderPrice(point, time::formatIso8601(point.time));
}

void LiveUpdates::onCycle(const CycleUpdate& update) {
  if (update.points.empty()) return;
  std::vector<events::UpdateEntry> prices;
  prices.reserve(update.points.size());
  std::int64_t formatted_time = update.points.front().time;
  std::string iso_time = time::formatIso8601(formatted_time);
  for (const auto& point : update.points) {
    if (point.time != formatted_time) {
      formatted_time = point.time;
      iso_time = time::formatIso8601(formatted_time);
    }
    prices.push_back(events::UpdateEntry{point.item_id, ws::renderPrice(point, iso_time)});
  }
  auto batch = std::make_shared<events::UpdateBatch>("prices", std::move(prices), update.time);
  events::UpdateBatchPtr volatility;
  if (volatility_) {
    std::vector<events::UpdateEntry> metrics;
    const auto& entries = batch->entries();  // ordered by item: one lookup per item
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (i > 0 && entries[i].item_id == entries[i - 1].item_id) continue;
      if (auto object = volatility_(entries[i].item_id)) {
        metrics.push_back(events::UpdateEntry{entries[i].item_id, std::move(*object)});
      }
    }
    if (!metrics.empty()) {
      volatility = std::make_shared<const events::UpdateBatch>("volatility", std::move(metrics),
                                                               update.time);
    }
  }
  // Both kinds are built before either is published, and the prices batch says the
  // volatility batch follows: a reactor takes them together and writes a client's prices
  // and volatility frames in one system call.
  batch->setFollowed(volatility != nullptr);
  bus_.publish(batch);
  if (volatility) bus_.publish(volatility);
}

}  // namespace skinpulse::ws
