#pragma once

// PointStream: the synthetic price history of bench_scale (bench/scale/README.md, "The
// shape"). Catalogue item ids, the shipped sources' poll intervals stretched by one common
// factor so a year holds the requested number of points, and every point a pure function
// of (item, source, poll): any slice of the year can be generated again, and the benchmark
// can count what a read must return without keeping the points.

#include "store/Records.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::bench {

/// One market source as shipped (etc/skinpulse/conf.d): its poll interval, the share of
/// the catalogue it lists, and the kind of price it reports.
struct SourceShape {
  std::string name;
  std::int64_t shipped_interval = 0;  ///< seconds
  double coverage = 1.0;              ///< share of the benchmark's items it lists
  sdk::PriceKind kind = sdk::PriceKind::kAsk;
};

/// One poll of one source: the points of every item the source lists, at one time.
struct Poll {
  std::size_t source = 0;  ///< index into PointStream::sources()
  std::int64_t time = 0;
  std::int64_t index = 0;  ///< the poll's number since the epoch (time = phase + index × interval)
};

class PointStream {
 public:
  /// `item_ids`: the items of the stream (catalogue ids). The stream covers
  /// [now − history_days, now); intervals are stretched so it holds ~`target_points`.
  PointStream(std::vector<std::int64_t> item_ids, std::size_t target_points, std::int64_t now,
              int history_days);

  const std::vector<SourceShape>& sources() const { return sources_; }
  const std::vector<std::int64_t>& items() const { return items_; }
  /// The common factor applied to the shipped intervals.
  double stretch() const { return stretch_; }
  std::int64_t interval(std::size_t source) const { return intervals_[source]; }
  std::int64_t now() const { return now_; }
  std::int64_t start() const { return now_ - std::int64_t{history_days_} * 86400; }

  /// Whether source `source` lists item number `item` (an index into items()).
  bool lists(std::size_t item, std::size_t source) const;
  /// How many items source `source` lists.
  std::size_t listed(std::size_t source) const { return listed_[source]; }

  /// Every poll with from <= time < to, ordered by time, then source.
  std::vector<Poll> polls(std::int64_t from, std::int64_t to) const;
  /// The polls of one source with from <= time < to, ordered by time.
  std::vector<Poll> pollsOf(std::size_t source, std::int64_t from, std::int64_t to) const;
  /// Appends the points of `poll` (item order) to `out`.
  void append(const Poll& poll, std::vector<store::PricePoint>& out) const;
  /// The point item number `item` gets in `poll` (the source must list it).
  store::PricePoint point(const Poll& poll, std::size_t item) const;
  /// How many points the stream holds with from <= time < to.
  std::size_t count(std::int64_t from, std::int64_t to) const;

 private:
  std::vector<SourceShape> sources_;
  std::vector<std::int64_t> items_;
  std::vector<std::int64_t> intervals_;
  std::vector<std::int64_t> phases_;
  std::vector<std::size_t> listed_;
  std::vector<std::vector<bool>> lists_;  ///< [source][item]
  std::int64_t now_;
  int history_days_;
  double stretch_ = 1.0;
};

/// A well-mixed 64-bit hash of a few integers (splitmix64 steps).
std::uint64_t mix(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0);

}  // namespace skinpulse::bench
