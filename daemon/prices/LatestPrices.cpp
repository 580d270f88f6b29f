#include "prices/LatestPrices.hpp"

#include <algorithm>
#include <mutex>
#include <set>

namespace skinpulse {
namespace {

constexpr std::int64_t kDay = 86400;

}  // namespace

void LatestPrices::reset(const std::vector<PriceStore::Latest>& rows) {
  std::unordered_map<std::int64_t, std::vector<SourceLatest>> fresh;
  std::set<std::string> names;
  for (const auto& row : rows) {
    fresh[row.newest.item_id].push_back(SourceLatest{row.newest, row.previous_time});
    names.insert(row.newest.source);
  }
  for (auto& [item, sources] : fresh) {
    std::sort(sources.begin(), sources.end(), [](const SourceLatest& a, const SourceLatest& b) {
      return a.newest.source < b.newest.source;
    });
  }
  std::unique_lock lock(mutex_);
  by_item_ = std::move(fresh);
  source_names_.assign(names.begin(), names.end());
}

void LatestPrices::apply(const std::vector<PricePoint>& points) {
  std::unique_lock lock(mutex_);
  for (const auto& point : points) fold(point);
}

void LatestPrices::fold(const PricePoint& point) {
  auto& sources = by_item_[point.item_id];
  auto it = std::lower_bound(sources.begin(), sources.end(), point.source,
                             [](const SourceLatest& entry, const std::string& name) {
                               return entry.newest.source < name;
                             });
  if (it == sources.end() || it->newest.source != point.source) {
    sources.insert(it, SourceLatest{point, std::nullopt});
    const auto name = std::lower_bound(source_names_.begin(), source_names_.end(), point.source);
    if (name == source_names_.end() || *name != point.source) {
      source_names_.insert(name, point.source);
    }
    return;
  }
  if (point.time > it->newest.time) {
    it->previous_time = it->newest.time;
    it->newest = point;
  } else if (point.time < it->newest.time &&
             (!it->previous_time || point.time > *it->previous_time)) {
    it->previous_time = point.time;
  }
}

std::vector<SourceLatest> LatestPrices::of(std::int64_t item_id) const {
  std::shared_lock lock(mutex_);
  const auto it = by_item_.find(item_id);
  return it == by_item_.end() ? std::vector<SourceLatest>{} : it->second;
}

std::vector<std::string> LatestPrices::sourceNames() const {
  std::shared_lock lock(mutex_);
  return source_names_;
}

std::vector<std::string> referenceOrder(const std::vector<std::string>& configured,
                                        const std::vector<std::string>& enabled_sources,
                                        const std::vector<std::string>& known_sources) {
  if (!configured.empty()) return configured;
  std::vector<std::string> order = enabled_sources;
  std::vector<std::string> rest;
  for (const auto& name : known_sources) {
    if (std::find(order.begin(), order.end(), name) == order.end()) rest.push_back(name);
  }
  std::sort(rest.begin(), rest.end());
  order.insert(order.end(), rest.begin(), rest.end());
  return order;
}

CurrentPrice currentPrice(const std::vector<SourceLatest>& latest,
                          const std::vector<std::string>& order, std::int64_t now) {
  for (const auto& name : order) {
    for (const auto& entry : latest) {
      if (entry.newest.source != name) continue;
      const bool twoInWindow =
          entry.newest.time <= now && entry.previous_time && *entry.previous_time > now - kDay;
      if (twoInWindow) return {entry.newest.price, entry.newest.source};
    }
  }
  const SourceLatest* newest = nullptr;
  for (const auto& entry : latest) {
    if (newest == nullptr || entry.newest.time > newest->newest.time) newest = &entry;
  }
  if (newest == nullptr) return {};
  return {newest->newest.price, newest->newest.source};
}

}  // namespace skinpulse
