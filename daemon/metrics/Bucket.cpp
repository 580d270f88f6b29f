#include "metrics/Bucket.hpp"

#include <algorithm>

namespace skinpulse::metrics {
namespace {

Wide wide(std::int64_t value) { return static_cast<Wide>(value); }

}  // namespace

void Bucket::add(std::int64_t offset, std::int64_t price) {
  if (n == 0) {
    first_price = last_price = min_price = max_price = price;
    first_offset = last_offset = static_cast<std::uint16_t>(offset);
  } else if (offset < first_offset) {
    // An earlier point than the first: re-base the price sums on it (exact in integers).
    const std::int64_t shift = first_price - price;
    sum_dp2 += 2 * wide(shift) * sum_dp + wide(n) * wide(shift) * wide(shift);
    sum_dtdp += wide(shift) * sum_dt;
    sum_dp += static_cast<std::int64_t>(n) * shift;
    first_price = price;
    first_offset = static_cast<std::uint16_t>(offset);
  }
  if (n > 0 && offset >= last_offset) {
    last_price = price;
    last_offset = static_cast<std::uint16_t>(offset);
  }
  min_price = std::min(min_price, price);
  max_price = std::max(max_price, price);
  const std::int64_t dp = price - first_price;
  sum_dp += dp;
  sum_dp2 += wide(dp) * wide(dp);
  sum_dt += offset;
  sum_dt2 += offset * offset;
  sum_dtdp += wide(offset) * wide(dp);
  ++n;
}

}  // namespace skinpulse::metrics
