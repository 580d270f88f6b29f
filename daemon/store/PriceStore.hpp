#pragma once

#include "store/Records.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse {

/// Price history keyed by (item_id, source, time). Thread-safe.
class PriceStore {
 public:
  virtual ~PriceStore() = default;

  /// Stores a batch in ONE transaction; a point whose key already exists is ignored
  /// (the first observation wins). Returns how many points were new. On error nothing
  /// of the batch is stored and the exception propagates.
  virtual std::size_t insert(const std::vector<PricePoint>& points) = 0;

  /// Points of one item with time > since, optionally one source, ordered by time then
  /// source.
  virtual std::vector<PricePoint> history(std::int64_t item_id, std::int64_t since,
                                          const std::optional<std::string>& source) = 0;

  /// All points with time > since, ordered by item, source, time (rebuilding windows).
  virtual std::vector<PricePoint> pointsSince(std::int64_t since) = 0;

  /// The same points as pointsSince, in the same order, handed to `visit` in consecutive
  /// chunks of at most `chunk` points, so a caller folding a week of history (the metrics
  /// engine at start-up) never holds more than one chunk. Stores that can page override
  /// this; the default reads everything at once.
  using PointChunkVisitor = std::function<void(const std::vector<PricePoint>&)>;
  virtual void scanSince(std::int64_t since, std::size_t chunk, const PointChunkVisitor& visit) {
    (void)chunk;
    const auto points = pointsSince(since);
    if (!points.empty()) visit(points);
  }

  /// For every (item, source): its newest point and, when there is one, the time of the
  /// one before it. Loads the latest-price cache at start.
  struct Latest {
    PricePoint newest;
    std::optional<std::int64_t> previous_time;
  };
  virtual std::vector<Latest> latestPerItemSource() = 0;

  /// Deletes at most `limit` points with time < before, oldest first, in one short
  /// transaction; returns how many. Retention calls it repeatedly so no single delete
  /// holds the write lock long enough to stall a cycle.
  virtual std::size_t deleteOlderThan(std::int64_t before, std::size_t limit) = 0;

  /// Distinct source names present in the store, sorted.
  virtual std::vector<std::string> sourceNames() = 0;
};

}  // namespace skinpulse
