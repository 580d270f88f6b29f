#pragma once

// CandlesMemoryStore: a price store in memory that keeps hourly and daily rollups the way
// docs/api.md §10 says the SQL stores do — the first point of a key wins, only new,
// unflagged points are folded (with store/Ohlcv's barOf and mergeBar), a point whose flag
// clearOutliers() lifts joins its rollups, raw retention leaves the rollups alone. The
// candle tests read candles from it both ways, raw and rolled up, and compare them.

#include "mocks/NullPriceStore.hpp"
#include "store/Ohlcv.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace skinpulse::test {

class CandlesMemoryStore : public NullPriceStore {
 public:
  using Key = std::tuple<std::int64_t, std::string, std::int64_t>;  // item, source, time

  std::size_t insert(const std::vector<store::PricePoint>& points) override {
    std::size_t added = 0;
    for (const auto& point : points) {
      if (!points_.try_emplace(keyOf(point), point).second) continue;  // first one wins
      ++added;
      if (!point.outlier) rollUp(point);
    }
    return added;
  }

  void clearOutliers(const std::vector<store::PricePoint>& points) override {
    for (const auto& wanted : points) {
      auto found = points_.find(keyOf(wanted));
      if (found == points_.end() || !found->second.outlier) continue;
      found->second.outlier = false;
      rollUp(found->second);
    }
  }

  std::vector<store::PricePoint> history(std::int64_t item_id, std::int64_t since,
                                         const std::optional<std::string>& source) override {
    ++history_reads;
    std::vector<store::PricePoint> out;
    for (const auto& [key, point] : points_) {
      if (point.item_id == item_id && point.time > since && (!source || point.source == *source)) {
        out.push_back(point);
      }
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return std::tie(a.time, a.source) < std::tie(b.time, b.source);
    });
    return out;
  }

  std::size_t deleteOlderThan(std::int64_t before, std::int64_t, std::size_t limit) override {
    std::size_t gone = 0;
    for (auto it = points_.begin(); it != points_.end() && gone < limit;) {
      if (it->second.time < before) {
        it = points_.erase(it);
        ++gone;
      } else {
        ++it;
      }
    }
    return gone;
  }

  std::vector<store::OhlcvBar> rollups(std::int64_t item_id, const std::string& source,
                                       store::RollupLevel level, std::int64_t from) override {
    ++rollup_reads;
    std::vector<store::OhlcvBar> out;
    for (const auto& [key, bar] : levels_[index(level)]) {
      if (std::get<0>(key) == item_id && std::get<1>(key) == source && bar.start >= from) {
        out.push_back(bar);
      }
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.start < b.start; });
    return out;
  }

  std::size_t deleteRollupsBefore(store::RollupLevel level, std::int64_t before) override {
    return std::erase_if(levels_[index(level)],
                         [before](const auto& entry) { return entry.second.start < before; });
  }

  std::size_t pointCount() const { return points_.size(); }

  int history_reads = 0;
  int rollup_reads = 0;

 private:
  static Key keyOf(const store::PricePoint& point) {
    return {point.item_id, point.source, point.time};
  }
  static std::size_t index(store::RollupLevel level) {
    return level == store::RollupLevel::kHour ? 0 : 1;
  }

  void rollUp(const store::PricePoint& point) {
    for (const auto level : {store::RollupLevel::kHour, store::RollupLevel::kDay}) {
      const std::int64_t start = store::bucketStart(point.time, store::rollupSeconds(level));
      auto& bar = levels_[index(level)][Key{point.item_id, point.source, start}];
      bar.start = start;
      store::mergeBar(bar, store::barOf(start, point.time, point.price, point.volume));
    }
  }

  std::map<Key, store::PricePoint> points_;
  std::map<Key, store::OhlcvBar> levels_[2];  // hourly, daily; keyed by (item, source, start)
};

}  // namespace skinpulse::test
