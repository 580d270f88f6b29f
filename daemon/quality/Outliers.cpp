#include "quality/Outliers.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace skinpulse::quality {
namespace {

// The median; the mean of the two middle values for an even count. Reorders `values`.
// An item has a handful of sources: an insertion sort beats nth_element's set-up, and
// this runs for nearly every point of a cycle.
double median(std::vector<double>& values) {
  const std::size_t n = values.size();
  if (n <= 16) {
    for (std::size_t i = 1; i < n; ++i) {
      const double v = values[i];
      std::size_t j = i;
      for (; j > 0 && values[j - 1] > v; --j) values[j] = values[j - 1];
      values[j] = v;
    }
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
  }
  const std::size_t half = n / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half),
                   values.end());
  const double upper = values[half];
  if (n % 2 == 1) return upper;
  const double lower =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(half));
  return (lower + upper) / 2.0;
}

// Source names are short: compared inline rather than through a memcmp call, since
// this runs several times for every point of a cycle.
bool sameName(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

bool outsideBand(std::int64_t price, double reference, double factor) {
  const auto p = static_cast<double>(price);
  return p * factor < reference || p > reference * factor;
}

OutlierJudge::OutlierJudge(const prices::Freshness& freshness, double factor,
                           std::vector<store::PricePoint>& points)
    : freshness_(freshness),
      factor_(factor),
      always_fresh_(freshness.shortestMaxAge()),
      points_(points) {}

std::int64_t OutlierJudge::maxAge(const std::string& source) {
  for (const auto& [name, age] : max_ages_) {
    if (sameName(name, source)) return age;
  }
  max_ages_.emplace_back(source, freshness_.maxAge(source));
  return max_ages_.back().second;
}

void OutlierJudge::operator()(std::vector<prices::SourceLatest>& entries, std::size_t index) {
  store::PricePoint& point = points_[index];
  prices::SourceLatest* own = nullptr;
  others_.clear();
  for (auto& entry : entries) {
    const store::PricePoint& newest = entry.newest;
    if (sameName(newest.source, point.source)) {
      own = &entry;
    } else if (!newest.outlier) {
      // Most peers' points are a cycle old: fresh for any source, no name lookup.
      const std::int64_t age = point.time - newest.time;
      if (age >= always_fresh_ && age >= maxAge(newest.source)) continue;
      others_.push_back(static_cast<double>(newest.price));
    }
  }
  if (own != nullptr && point.time < own->newest.time) {
    point.outlier = false;  // old history arriving late: not judged
    return;
  }
  if (own != nullptr && point.time == own->newest.time) {
    point.outlier = own->newest.outlier;  // stored already: the store keeps the first
    return;
  }
  if (others_.size() >= 2) {
    point.outlier = outsideBand(point.price, median(others_), factor_);
  } else if (own != nullptr && own->newest.outlier &&
             !outsideBand(point.price, static_cast<double>(own->newest.price), factor_)) {
    // The new point confirms the flagged one: both stand.
    store::PricePoint& previous = own->newest;
    previous.outlier = false;
    own->trusted_price = previous.price;
    bool in_batch = false;
    const auto [first, last] = flagged_.equal_range(previous.item_id);
    for (auto it = first; it != last; ++it) {
      store::PricePoint& candidate = points_[it->second];
      if (candidate.time == previous.time && sameName(candidate.source, previous.source)) {
        candidate.outlier = false;
        in_batch = true;
        flagged_.erase(it);
        break;
      }
    }
    if (!in_batch) confirmed_.push_back(previous);
    point.outlier = false;
  } else if (own != nullptr && own->trusted_price) {
    point.outlier = outsideBand(point.price, static_cast<double>(*own->trusted_price), factor_);
  } else {
    point.outlier = false;  // nothing to compare with yet
  }
  if (point.outlier) flagged_.emplace(point.item_id, index);
}

std::vector<store::PricePoint> judgeBatch(const prices::Freshness& freshness, double factor,
                                          const prices::LatestPrices::Snapshot& before,
                                          std::vector<store::PricePoint>& points) {
  OutlierJudge judge(freshness, factor, points);
  prices::LatestPrices::foldInto(before, points, judge.hook());
  return judge.confirmed();
}

}  // namespace skinpulse::quality
