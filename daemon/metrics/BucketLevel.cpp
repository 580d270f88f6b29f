#include "metrics/BucketLevel.hpp"

#include <algorithm>

namespace skinpulse::metrics {
namespace {

Wide wide(std::int64_t value) { return static_cast<Wide>(value); }

// Floor division of a 128-bit sum by a positive count: sum = quotient * n + remainder,
// 0 <= remainder < n.
struct Split {
  Wide quotient;
  Wide remainder;
};
Split split(Wide sum, Wide n) {
  Split s{sum / n, sum % n};
  if (s.remainder < 0) {
    s.quotient -= 1;
    s.remainder += n;
  }
  return s;
}

double toDouble(Wide value) { return static_cast<double>(value); }

std::uint32_t indexOf(const WindowShape& shape, std::int64_t time) {
  return static_cast<std::uint32_t>(time / shape.bucket_seconds);
}

std::uint32_t lowestIndex(const WindowShape& shape, std::int64_t now) {
  const std::int64_t current = now / shape.bucket_seconds;
  const std::int64_t span = shape.seconds / shape.bucket_seconds;
  return static_cast<std::uint32_t>(std::max<std::int64_t>(0, current - span));
}

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

void BucketLevel::add(const WindowShape& shape, std::int64_t time, std::int64_t price) {
  const std::uint32_t index = indexOf(shape, time);
  if (index < floor_) {
    if (time > before_time_) {
      before_time_ = time;
      before_price_ = price;
    }
    return;
  }
  const std::int64_t offset = time - static_cast<std::int64_t>(index) * shape.bucket_seconds;
  if (head_ == buckets_.size() || buckets_.back().index < index) {
    buckets_.emplace_back().index = index;
    buckets_.back().add(offset, price);
  } else if (buckets_.back().index == index) {
    buckets_.back().add(offset, price);
  } else {
    const auto begin = buckets_.begin() + head_;
    auto it = std::lower_bound(begin, buckets_.end(), index,
                               [](const Bucket& b, std::uint32_t i) { return b.index < i; });
    if (it == buckets_.end() || it->index != index) {
      it = buckets_.insert(it, Bucket{});
      it->index = index;
    }
    it->add(offset, price);
  }
  ++n_;
}

void BucketLevel::advance(const WindowShape& shape, std::int64_t now) {
  const std::uint32_t lowest = lowestIndex(shape, now);
  if (lowest <= floor_) return;
  while (head_ < buckets_.size() && buckets_[head_].index < lowest) {
    const Bucket& gone = buckets_[head_];
    const std::int64_t last_time =
        static_cast<std::int64_t>(gone.index) * shape.bucket_seconds + gone.last_offset;
    if (last_time > before_time_) {
      before_time_ = last_time;
      before_price_ = gone.last_price;
    }
    n_ -= gone.n;
    ++head_;
  }
  floor_ = lowest;
  // Drop the dead prefix once it is the larger half: amortised O(1) per bucket.
  if (head_ > 0 && 2 * static_cast<std::size_t>(head_) >= buckets_.size()) {
    buckets_.erase(buckets_.begin(), buckets_.begin() + head_);
    head_ = 0;
  }
}

sdk::WindowStats BucketLevel::stats(const WindowShape& shape, std::int64_t now) const {
  sdk::WindowStats s;
  s.window_seconds = shape.seconds;
  s.now = now;
  s.has_price_before = before_time_ >= 0;
  s.price_before = static_cast<double>(before_price_);

  const std::uint32_t lowest = lowestIndex(shape, now);
  const std::uint32_t current = indexOf(shape, now);
  const std::int64_t origin_time = static_cast<std::int64_t>(lowest) * shape.bucket_seconds;
  const Bucket* first = nullptr;
  const Bucket* last = nullptr;
  Wide n = 0, sp = 0, spp = 0, st = 0, stt = 0, stp = 0;
  std::int64_t origin_price = 0;
  for (std::size_t i = head_; i < buckets_.size(); ++i) {
    const Bucket& b = buckets_[i];
    if (b.index < lowest) continue;
    if (b.index > current) break;
    if (first == nullptr) {
      first = &b;
      origin_price = b.first_price;
      s.min_price = static_cast<double>(b.min_price);
      s.max_price = static_cast<double>(b.max_price);
    }
    last = &b;
    // The bucket's sums, moved from (start, first_price) to (origin_time, origin_price).
    const Wide a = wide(b.first_price - origin_price);
    const Wide c = wide(static_cast<std::int64_t>(b.index) * shape.bucket_seconds - origin_time);
    const Wide bn = b.n;
    n += bn;
    sp += b.sum_dp + bn * a;
    spp += b.sum_dp2 + 2 * a * b.sum_dp + bn * a * a;
    st += b.sum_dt + bn * c;
    stt += b.sum_dt2 + 2 * c * b.sum_dt + bn * c * c;
    stp += b.sum_dtdp + a * b.sum_dt + c * b.sum_dp + bn * a * c;
    s.min_price = std::min(s.min_price, static_cast<double>(b.min_price));
    s.max_price = std::max(s.max_price, static_cast<double>(b.max_price));
  }
  if (first == nullptr) return s;

  s.n = static_cast<std::int64_t>(n);
  s.first_time =
      static_cast<std::int64_t>(first->index) * shape.bucket_seconds + first->first_offset;
  s.first_price = static_cast<double>(first->first_price);
  s.last_time = static_cast<std::int64_t>(last->index) * shape.bucket_seconds + last->last_offset;
  s.last_price = static_cast<double>(last->last_price);

  // Centre on q = floor(mean): Σ(x - q)² and Σ(t - qt)(p - qp) are exact integers of the
  // size of the moments themselves; the fractional part r/n of the mean is removed last.
  const Split p = split(sp, n);
  const Split t = split(st, n);
  const Wide cpp = spp - 2 * p.quotient * sp + n * p.quotient * p.quotient;
  const Wide ctt = stt - 2 * t.quotient * st + n * t.quotient * t.quotient;
  const Wide ctp = stp - t.quotient * sp - p.quotient * st + n * t.quotient * p.quotient;
  const double dn = toDouble(n);
  s.mean_price = toDouble(origin_price + p.quotient) + toDouble(p.remainder) / dn;
  s.mean_time = toDouble(origin_time + t.quotient) + toDouble(t.remainder) / dn;
  s.m2_price = std::max(0.0, toDouble(cpp) - toDouble(p.remainder) * toDouble(p.remainder) / dn);
  s.m2_time = std::max(0.0, toDouble(ctt) - toDouble(t.remainder) * toDouble(t.remainder) / dn);
  s.co_moment = toDouble(ctp) - toDouble(t.remainder) * toDouble(p.remainder) / dn;
  return s;
}

}  // namespace skinpulse::metrics
