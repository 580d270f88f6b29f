#pragma once

// Bucket: the exact sufficient statistics of the points of one series that fall in one
// bucket of a window (docs/api.md §3.2), relative to the bucket's start and its first
// price so that the sums stay small (BucketQueue stores them in a few bytes each).
//
// This is the working form: a BucketLevel keeps its newest (open) bucket like this and
// BucketQueue encodes the closed ones.

#include <cstdint>

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

  friend bool operator==(const Bucket&, const Bucket&) = default;
};

}  // namespace skinpulse::metrics
