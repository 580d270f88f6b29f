#include "quality/Outliers.hpp"

#include <algorithm>
#include <cstddef>

namespace skinpulse::quality {
namespace {

// The median; the mean of the two middle values for an even count. Reorders `values`.
double median(std::vector<double>& values) {
  const std::size_t half = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half),
                   values.end());
  const double upper = values[half];
  if (values.size() % 2 == 1) return upper;
  const double lower =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half));
  return (lower + upper) / 2.0;
}

}  // namespace

bool outsideBand(std::int64_t price, double reference, double factor) {
  const auto p = static_cast<double>(price);
  return p * factor < reference || p > reference * factor;
}

OutlierJudge::OutlierJudge(const Freshness& freshness, double factor,
                           std::shared_ptr<const LatestPrices::Snapshot> before)
    : freshness_(freshness), factor_(factor), before_(std::move(before)) {}

std::vector<SourceLatest>& OutlierJudge::entriesOf(std::int64_t item_id) {
  auto [it, inserted] = touched_.try_emplace(item_id);
  if (inserted && before_) {
    const auto old = before_->by_item.find(item_id);
    if (old != before_->by_item.end()) it->second = *old->second;
  }
  return it->second;
}

std::vector<PricePoint> OutlierJudge::judge(std::vector<PricePoint>& points) {
  std::vector<PricePoint> confirmed;
  for (auto& point : points) {
    auto& entries = entriesOf(point.item_id);
    SourceLatest* own = nullptr;
    others_.clear();
    for (auto& entry : entries) {
      if (entry.newest.source == point.source) {
        own = &entry;
      } else if (!entry.newest.outlier &&
                 freshness_.fresh(entry.newest.source, entry.newest.time, point.time)) {
        others_.push_back(static_cast<double>(entry.newest.price));
      }
    }
    if (own != nullptr && point.time < own->newest.time) {
      point.outlier = false;  // old history arriving late: not judged
      continue;
    }
    if (own != nullptr && point.time == own->newest.time) {
      point.outlier = own->newest.outlier;  // stored already: the store keeps the first
      continue;
    }
    if (others_.size() >= 2) {
      point.outlier = outsideBand(point.price, median(others_), factor_);
    } else if (own != nullptr && own->newest.outlier &&
               !outsideBand(point.price, static_cast<double>(own->newest.price), factor_)) {
      // The new point confirms the flagged one: both stand.
      PricePoint cleared = own->newest;
      cleared.outlier = false;
      foldLatest(entries, cleared);
      confirmed.push_back(std::move(cleared));
      point.outlier = false;
    } else if (own != nullptr && own->trusted_price) {
      point.outlier = outsideBand(point.price, static_cast<double>(*own->trusted_price), factor_);
    } else {
      point.outlier = false;  // nothing to compare with yet
    }
    foldLatest(entries, point);
  }
  if (confirmed.empty()) return confirmed;
  // A confirmed point of this very batch is stored unflagged; only the ones stored
  // before need clearing in the store.
  std::unordered_map<std::int64_t, std::vector<std::size_t>> by_item;
  for (std::size_t i = 0; i < confirmed.size(); ++i) by_item[confirmed[i].item_id].push_back(i);
  std::vector<bool> in_batch(confirmed.size(), false);
  for (auto& point : points) {
    const auto it = by_item.find(point.item_id);
    if (it == by_item.end()) continue;
    for (const std::size_t i : it->second) {
      if (point.time == confirmed[i].time && point.source == confirmed[i].source) {
        point.outlier = false;
        in_batch[i] = true;
      }
    }
  }
  std::vector<PricePoint> stored_before;
  for (std::size_t i = 0; i < confirmed.size(); ++i) {
    if (!in_batch[i]) stored_before.push_back(std::move(confirmed[i]));
  }
  return stored_before;
}

}  // namespace skinpulse::quality
