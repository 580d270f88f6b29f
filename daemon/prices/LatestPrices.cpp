#include "prices/LatestPrices.hpp"

#include <algorithm>

namespace skinpulse::prices {
namespace {

constexpr std::int64_t kDay = 86400;

}  // namespace

bool foldLatest(std::vector<SourceLatest>& sources, const store::PricePoint& point) {
  auto it = std::lower_bound(sources.begin(), sources.end(), point.source,
                             [](const SourceLatest& entry, const std::string& name) {
                               return entry.newest.source < name;
                             });
  if (it == sources.end() || it->newest.source != point.source) {
    sources.insert(it, SourceLatest{point, std::nullopt,
                                    point.outlier ? std::nullopt : std::optional(point.price)});
    return true;
  }
  if (point.time > it->newest.time) {
    it->previous_time = it->newest.time;
    it->newest = point;
    if (!point.outlier) it->trusted_price = point.price;
  } else if (point.time == it->newest.time && it->newest.outlier && !point.outlier) {
    // The next point confirmed the newest (docs/api.md §12): its flag is cleared.
    it->newest.outlier = false;
    it->trusted_price = point.price;
  } else if (point.time < it->newest.time &&
             (!it->previous_time || point.time > *it->previous_time)) {
    it->previous_time = point.time;
  }
  return false;
}

namespace {

void addName(std::vector<std::string>& names, const std::string& name) {
  const auto at = std::lower_bound(names.begin(), names.end(), name);
  if (at == names.end() || *at != name) names.insert(at, name);
}

}  // namespace

LatestPrices::LatestPrices() : current_(std::make_shared<const Snapshot>()) {}

void LatestPrices::publish(std::shared_ptr<const Snapshot> next) {
  std::lock_guard lock(current_mutex_);
  current_ = std::move(next);
}

void LatestPrices::reset(const std::vector<store::PriceStore::Latest>& rows) {
  std::unordered_map<std::int64_t, std::vector<SourceLatest>> grouped;
  auto next = std::make_shared<Snapshot>();
  for (const auto& row : rows) {
    grouped[row.newest.item_id].push_back(
        SourceLatest{row.newest, row.previous_time, row.trusted_price});
    addName(next->source_names, row.newest.source);
  }
  for (auto& [item, sources] : grouped) {
    std::sort(sources.begin(), sources.end(), [](const SourceLatest& a, const SourceLatest& b) {
      return a.newest.source < b.newest.source;
    });
    next->by_item.emplace(item,
                          std::make_shared<const std::vector<SourceLatest>>(std::move(sources)));
  }
  std::lock_guard lock(writer_);
  publish(std::move(next));
}

std::shared_ptr<const LatestPrices::Snapshot> LatestPrices::foldInto(
    const Snapshot& base, const std::vector<store::PricePoint>& points, const FoldHook& hook) {
  auto next = std::make_shared<Snapshot>(base);
  // Each touched item gets one fresh copy of its entries, folded in place.
  std::unordered_map<std::int64_t, std::vector<SourceLatest>> touched;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::int64_t item = points[i].item_id;
    auto [it, inserted] = touched.try_emplace(item);
    if (inserted) {
      const auto old = next->by_item.find(item);
      if (old != next->by_item.end()) it->second = *old->second;
    }
    if (hook) hook(it->second, i);
    if (foldLatest(it->second, points[i])) addName(next->source_names, points[i].source);
  }
  for (auto& [item, sources] : touched) {
    next->by_item[item] = std::make_shared<const std::vector<SourceLatest>>(std::move(sources));
  }
  return next;
}

std::shared_ptr<const LatestPrices::Snapshot> LatestPrices::prepare(
    const std::vector<store::PricePoint>& points, const FoldHook& hook) const {
  return foldInto(*snapshot(), points, hook);
}

void LatestPrices::commit(std::shared_ptr<const Snapshot> next) {
  std::lock_guard lock(writer_);
  publish(std::move(next));
}

void LatestPrices::apply(const std::vector<store::PricePoint>& points) {
  if (points.empty()) return;
  std::lock_guard lock(writer_);
  publish(foldInto(*snapshot(), points, nullptr));
}

std::vector<SourceLatest> LatestPrices::of(std::int64_t item_id) const {
  const auto snap = snapshot();
  const auto it = snap->by_item.find(item_id);
  return it == snap->by_item.end() ? std::vector<SourceLatest>{} : *it->second;
}

std::vector<std::string> LatestPrices::sourceNames() const { return snapshot()->source_names; }

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

std::vector<SourceLatest> withoutOutliers(std::vector<SourceLatest> latest) {
  std::vector<SourceLatest> kept;
  kept.reserve(latest.size());
  for (auto& entry : latest) {
    if (entry.newest.outlier) {
      if (!entry.trusted_price) continue;
      entry.newest.price = *entry.trusted_price;
      entry.newest.outlier = false;
    }
    kept.push_back(std::move(entry));
  }
  return kept;
}

}  // namespace skinpulse::prices
