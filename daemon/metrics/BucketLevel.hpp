#pragma once

// BucketLevel: the points of ONE series (one item, one source) pre-aggregated for ONE
// window (decisions.md §3.2): buckets of the window's width holding exact sufficient
// statistics, oldest first, plus the newest point that has left the window (the p_ref of
// percent_change).
//
// Exactness instead of compensation: times and prices are integers, so every sum is kept
// as an integer (times relative to their bucket's start, prices relative to the bucket's
// first price, squares and products in 128 bits). Combining the buckets of a window
// re-centres them on the window's first price and start time, and the second moments
// are taken around the integer nearest below the mean: no sum of large squares is ever
// subtracted from another, so a 10^7-cent series with one-cent moves keeps every digit.
// Only the final division by n rounds.
//
// The window is the buckets from the one holding now - W to the current, partial one: a
// superset of (now - W, now] by less than one bucket, as §3.2 allows. Not thread-safe:
// the engine owns it on one thread.

#include "skinpulse/sdk/metric.hpp"

#include "metrics/Windows.hpp"

#include <cstdint>
#include <vector>

namespace skinpulse::metrics {

__extension__ typedef __int128 Wide;

struct Bucket {
  Wide sum_dp2 = 0;   ///< Σ(p - first_price)²
  Wide sum_dtdp = 0;  ///< Σ(t - start)(p - first_price)
  std::int64_t first_price = 0, last_price = 0, min_price = 0, max_price = 0;
  std::int64_t sum_dp = 0;   ///< Σ(p - first_price)
  std::int64_t sum_dt = 0;   ///< Σ(t - start)
  std::int64_t sum_dt2 = 0;  ///< Σ(t - start)²
  std::uint32_t index = 0;   ///< start / bucket width
  std::uint32_t n = 0;
  std::uint16_t first_offset = 0, last_offset = 0;  ///< seconds after start

  void add(std::int64_t offset, std::int64_t price);
};

class BucketLevel {
 public:
  /// Largest price accepted (cents): keeps every 128-bit sum far from overflow.
  static constexpr std::int64_t kMaxPrice = INT64_C(1) << 40;

  /// Adds one point (time >= 0, 0 <= price <= kMaxPrice). A point older than the window
  /// as last advanced only competes for the p_ref slot.
  void add(const WindowShape& shape, std::int64_t time, std::int64_t price);

  /// Moves the window to end at `now`: buckets that left it are dropped, the newest of
  /// their points kept as p_ref. `now` never goes back (an earlier value is ignored).
  void advance(const WindowShape& shape, std::int64_t now);

  /// Points in the buckets kept (the window's, plus any in a bucket after now's).
  std::int64_t count() const { return n_; }
  bool empty() const { return head_ == buckets_.size() && before_time_ < 0; }

  /// Statistics of the window ending at `now` (call advance(now) first).
  sdk::WindowStats stats(const WindowShape& shape, std::int64_t now) const;

 private:
  std::vector<Bucket> buckets_;  ///< by index; the live ones start at head_
  std::uint32_t head_ = 0;
  std::uint32_t floor_ = 0;  ///< first bucket index still in the window
  std::int64_t n_ = 0;
  std::int64_t before_time_ = -1;  ///< newest point before the window; -1: none
  std::int64_t before_price_ = 0;
};

}  // namespace skinpulse::metrics
