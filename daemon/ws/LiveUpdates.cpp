#include "ws/LiveUpdates.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"

#include <charconv>
#include <string_view>
#include <unordered_map>

namespace skinpulse::ws {

namespace {

// Renders price entries. The parts a cycle's points share (the escaped source between
// its keys, the formatted time) are rendered once each: the publishing thread renders
// every point of a cycle before any client gets a byte.
class PriceRenderer {
 public:
  std::string render(const store::PricePoint& point) {
    const std::string& source = sourcePart(point.source);
    const std::string& time = timePart(point.time);
    char item[24], price[24], volume[24];
    const auto item_end = std::to_chars(item, item + sizeof item, point.item_id).ptr;
    const auto price_end = std::to_chars(price, price + sizeof price, point.price).ptr;
    const auto volume_end = std::to_chars(volume, volume + sizeof volume, point.volume).ptr;
    std::string out;
    out.reserve(kItemKey.size() + static_cast<std::size_t>(item_end - item) + source.size() +
                static_cast<std::size_t>(price_end - price) + kVolumeKey.size() +
                static_cast<std::size_t>(volume_end - volume) + time.size());
    out.append(kItemKey).append(item, item_end).append(source).append(price, price_end);
    out.append(kVolumeKey).append(volume, volume_end).append(time);
    return out;
  }

 private:
  static constexpr std::string_view kItemKey = R"({"item_id":)";
  static constexpr std::string_view kVolumeKey = R"(,"volume":)";

  // `,"source":"<escaped>","price":`
  const std::string& sourcePart(const std::string& source) {
    if (last_source_ != nullptr && last_source_->first == source) return last_source_->second;
    auto found = sources_.find(source);
    if (found == sources_.end()) {
      std::string part = R"(,"source":)";
      common::appendJsonString(part, source);
      part += R"(,"price":)";
      found = sources_.emplace(source, std::move(part)).first;
    }
    last_source_ = &*found;
    return found->second;
  }

  // `,"time":"<ISO 8601>"}`
  const std::string& timePart(std::int64_t time) {
    if (time_part_.empty() || time != time_) {
      time_ = time;
      time_part_ = R"(,"time":")" + time::formatIso8601(time) + R"("})";
    }
    return time_part_;
  }

  std::unordered_map<std::string, std::string> sources_;
  const std::pair<const std::string, std::string>* last_source_ = nullptr;
  std::int64_t time_ = 0;
  std::string time_part_;
};

}  // namespace

std::string LiveUpdates::renderPrice(const store::PricePoint& point) {
  return PriceRenderer().render(point);
}

void LiveUpdates::onCycle(const ingest::CycleUpdate& update) {
  if (update.points.empty()) return;
  std::vector<events::UpdateEntry> prices;
  prices.reserve(update.points.size());
  PriceRenderer renderer;
  for (const auto& point : update.points) {
    prices.push_back(events::UpdateEntry{point.item_id, renderer.render(point)});
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
