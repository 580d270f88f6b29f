#pragma once

// BucketLevel: the points of ONE series (one item, one source) pre-aggregated for ONE
// window (docs/api.md §3.2): buckets of the window's width holding exact sufficient
// statistics, oldest first, plus the newest point that has left the window (the p_ref of
// percent_change).
//
// Exactness instead of compensation: times and prices are integers, so every sum is kept
// as an integer, squares and products in 128 bits, where adding and subtracting lose
// nothing. The level keeps the running sums of its window (a new point is added, a
// bucket leaving the window is subtracted), so the window's statistics cost O(1) plus
// min and max kept up to date (rescanned only when the bucket holding one of them has
// left the window and stats() is asked). The second moments are then taken around the
// integer nearest below the mean: Σ(x - q)² is an exact integer of the size of the
// moment itself, and only the final division by n rounds. A 10^7-cent series with
// one-cent moves keeps every digit.
//
// Memory: a daemon holds a few hundred buckets for each of 100,000+ series, so only the
// newest bucket (the one still taking points) is kept as a Bucket; the others are
// encoded in a BucketQueue at a few bytes each. They are decoded only when they leave
// the window or the window's min or max must be found again.
//
// The window is the buckets from the one holding now - W to the current, partial one: a
// superset of (now - W, now] by less than one bucket, as §3.2 allows. Not thread-safe:
// the engine owns it on one thread.

#include "skinpulse/sdk/metric.hpp"

#include "metrics/Bucket.hpp"
#include "metrics/BucketQueue.hpp"
#include "metrics/Windows.hpp"

#include <cstddef>
#include <cstdint>

namespace skinpulse::metrics {

class BucketLevel {
 public:
  /// Largest price accepted (cents): keeps every 128-bit sum far from overflow.
  static constexpr std::int64_t kMaxPrice = INT64_C(1) << 40;

  /// Adds one point (time >= 0, 0 <= price <= kMaxPrice). A point older than the window
  /// as last advanced only competes for the p_ref slot. Points later than the `now` of
  /// stats() (the host accepts observations up to five minutes ahead) are counted.
  void add(const WindowShape& shape, std::int64_t time, std::int64_t price);

  /// Moves the window to end at `now`: buckets that left it are dropped, the newest of
  /// their points kept as p_ref. `now` never goes back (an earlier value is ignored).
  void advance(const WindowShape& shape, std::int64_t now);

  /// Points in the buckets kept (the window's, plus any in a bucket after now's).
  std::int64_t count() const { return n_; }
  bool empty() const { return n_ == 0 && before_time_ < 0; }

  /// Gives back the slack of the closed buckets' buffer (after a rebuild).
  void shrink() { closed_.shrink(); }
  /// Bytes this level holds outside the object itself.
  std::size_t heapBytes() const { return closed_.capacityBytes(); }

  /// Statistics of the window ending at `now` (call advance(now) first).
  sdk::WindowStats stats(const WindowShape& shape, std::int64_t now) const;

 private:
  // Running sums over the live buckets, times and prices as they are (not shifted).
  struct Totals {
    Wide sum_p = 0, sum_p2 = 0, sum_t2 = 0, sum_tp = 0;
    std::int64_t sum_t = 0;
  };

  void subtract(const WindowShape& shape, const Bucket& bucket);
  void rescanExtremes() const;
  void refreshFront(const WindowShape& shape);
  /// A point for a closed bucket: rewrites the queue (points arrive in time order from
  /// the engine, so only out-of-order callers pay for this).
  void addToClosed(std::uint32_t index, std::int64_t offset, std::int64_t price);

  // The window's buckets by index: the closed ones encoded, then the newest, which
  // still takes points, as it is (n == 0: none; then closed_ is empty too).
  BucketQueue closed_;
  Bucket open_;
  Totals totals_;
  // The window's first and last points and its first bucket, kept here so that a
  // recompute reads this object only, not the buckets (one cache line, not three).
  std::int64_t first_time_ = 0, first_price_ = 0, last_time_ = 0, last_price_ = 0;
  std::uint32_t front_index_ = UINT32_MAX;
  // Over the buckets when extremes_valid_. Found again by stats() when a bucket holding
  // one has left, not by advance(): of an item's series only the reference one is read.
  mutable std::int64_t min_price_ = 0, max_price_ = 0;
  mutable bool extremes_valid_ = true;
  std::uint32_t floor_ = 0;  ///< first bucket index still in the window
  std::int64_t n_ = 0;
  std::int64_t before_time_ = -1;  ///< newest point before the window; -1: none
  std::int64_t before_price_ = 0;
};

}  // namespace skinpulse::metrics
