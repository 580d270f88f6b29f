#include "metrics/BucketLevel.hpp"

#include <algorithm>
#include <utility>
#include <vector>

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
  // 128-bit division is a library call; the sums almost always fit in 64 bits.
  constexpr Wide kLow = INT64_MIN, kHigh = INT64_MAX;
  if (sum >= kLow && sum <= kHigh && n <= kHigh) {
    const auto a = static_cast<std::int64_t>(sum), b = static_cast<std::int64_t>(n);
    Split s{a / b, a % b};
    if (s.remainder < 0) {
      s.quotient -= 1;
      s.remainder += n;
    }
    return s;
  }
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
  totals_.sum_t += time;
  totals_.sum_p += price;
  totals_.sum_p2 += wide(price) * price;
  totals_.sum_t2 += wide(time) * time;
  totals_.sum_tp += wide(time) * price;
  if (n_ == 0) {
    min_price_ = max_price_ = price;
    extremes_valid_ = true;
    first_time_ = last_time_ = time;
    first_price_ = last_price_ = price;
  } else {
    min_price_ = std::min(min_price_, price);
    max_price_ = std::max(max_price_, price);
    if (time < first_time_) {
      first_time_ = time;
      first_price_ = price;
    }
    if (time >= last_time_) {
      last_time_ = time;
      last_price_ = price;
    }
  }
  front_index_ = std::min(front_index_, index);
  if (open_.n == 0 || open_.index < index) {
    if (open_.n > 0) closed_.push(open_);
    open_ = Bucket{};
    open_.index = index;
    open_.add(offset, price);
  } else if (open_.index == index) {
    open_.add(offset, price);
  } else {
    addToClosed(index, offset, price);
  }
  ++n_;
}

void BucketLevel::addToClosed(std::uint32_t index, std::int64_t offset, std::int64_t price) {
  std::vector<Bucket> all;
  all.reserve(closed_.size() + 1);
  auto reader = closed_.reader();
  for (Bucket b; reader.next(b);) all.push_back(b);
  auto it = std::lower_bound(all.begin(), all.end(), index,
                             [](const Bucket& b, std::uint32_t i) { return b.index < i; });
  if (it == all.end() || it->index != index) {
    it = all.insert(it, Bucket{});
    it->index = index;
  }
  it->add(offset, price);
  closed_.clear();
  for (const auto& b : all) closed_.push(b);
}

void BucketLevel::advance(const WindowShape& shape, std::int64_t now) {
  const std::uint32_t lowest = lowestIndex(shape, now);
  if (lowest <= floor_) return;
  floor_ = lowest;
  if (front_index_ >= lowest) return;
  while (front_index_ < lowest) {
    const Bucket gone = closed_.empty() ? std::exchange(open_, Bucket{}) : closed_.pop();
    const std::int64_t last_time =
        static_cast<std::int64_t>(gone.index) * shape.bucket_seconds + gone.last_offset;
    if (last_time > before_time_) {
      before_time_ = last_time;
      before_price_ = gone.last_price;
    }
    if (gone.min_price == min_price_ || gone.max_price == max_price_) extremes_valid_ = false;
    subtract(shape, gone);
    refreshFront(shape);
  }
}

void BucketLevel::refreshFront(const WindowShape& shape) {
  if (open_.n == 0) {
    front_index_ = UINT32_MAX;
    return;
  }
  const Bucket front = closed_.empty() ? open_ : closed_.front();
  front_index_ = front.index;
  first_time_ = static_cast<std::int64_t>(front.index) * shape.bucket_seconds + front.first_offset;
  first_price_ = front.first_price;
}

void BucketLevel::rescanExtremes() const {
  extremes_valid_ = true;
  if (open_.n == 0) return;
  min_price_ = open_.min_price;
  max_price_ = open_.max_price;
  auto reader = closed_.reader();
  for (Bucket b; reader.next(b);) {
    min_price_ = std::min(min_price_, b.min_price);
    max_price_ = std::max(max_price_, b.max_price);
  }
}

void BucketLevel::subtract(const WindowShape& shape, const Bucket& b) {
  // The bucket's sums, from (its start, its first price) back to plain times and prices.
  const Wide s = static_cast<std::int64_t>(b.index) * shape.bucket_seconds;
  const Wide f = b.first_price;
  const Wide n = b.n;
  totals_.sum_t -= b.sum_dt + static_cast<std::int64_t>(n * s);
  totals_.sum_p -= b.sum_dp + n * f;
  totals_.sum_p2 -= b.sum_dp2 + 2 * f * b.sum_dp + n * f * f;
  totals_.sum_t2 -= b.sum_dt2 + 2 * s * b.sum_dt + n * s * s;
  totals_.sum_tp -= b.sum_dtdp + f * b.sum_dt + s * b.sum_dp + n * s * f;
  n_ -= b.n;
}

sdk::WindowStats BucketLevel::stats(const WindowShape& shape, std::int64_t now) const {
  sdk::WindowStats s;
  s.window_seconds = shape.seconds;
  s.now = now;
  s.has_price_before = before_time_ >= 0;
  s.price_before = static_cast<double>(before_price_);

  if (n_ == 0) return s;
  if (!extremes_valid_) rescanExtremes();
  s.min_price = static_cast<double>(min_price_);
  s.max_price = static_cast<double>(max_price_);
  s.n = n_;
  s.first_time = first_time_;
  s.first_price = static_cast<double>(first_price_);
  s.last_time = last_time_;
  s.last_price = static_cast<double>(last_price_);

  const Wide n = n_;
  const Wide sp = totals_.sum_p, spp = totals_.sum_p2, st = totals_.sum_t, stt = totals_.sum_t2,
             stp = totals_.sum_tp;
  // Centre on q = floor(mean): Σ(x - q)² and Σ(t - qt)(p - qp) are exact integers of the
  // size of the moments themselves; the fractional part r/n of the mean is removed last.
  const Split p = split(sp, n);
  const Split t = split(st, n);
  const Wide cpp = spp - 2 * p.quotient * sp + n * p.quotient * p.quotient;
  const Wide ctt = stt - 2 * t.quotient * st + n * t.quotient * t.quotient;
  const Wide ctp = stp - t.quotient * sp - p.quotient * st + n * t.quotient * p.quotient;
  const double dn = toDouble(n);
  s.mean_price = toDouble(p.quotient) + toDouble(p.remainder) / dn;
  s.mean_time = toDouble(t.quotient) + toDouble(t.remainder) / dn;
  s.m2_price = std::max(0.0, toDouble(cpp) - toDouble(p.remainder) * toDouble(p.remainder) / dn);
  s.m2_time = std::max(0.0, toDouble(ctt) - toDouble(t.remainder) * toDouble(t.remainder) / dn);
  s.co_moment = toDouble(ctp) - toDouble(t.remainder) * toDouble(p.remainder) / dn;
  return s;
}

}  // namespace skinpulse::metrics
