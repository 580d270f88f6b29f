#pragma once

// An independent, deliberately naive implementation of docs/api.md §3.2 over raw
// points: two passes in long double, no buckets, no shifting tricks. The tests compare
// the engine and the plugins against it.

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace skinpulse::test {

struct RawPoint {
  std::int64_t time;
  std::int64_t price;
};

struct ReferenceMetrics {
  std::int64_t n = 0;
  long double mean = 0, stddev = 0, upper = 0, lower = 0, cov = 0, percent_change = 0,
              trend_per_hour = 0, min = 0, max = 0;
};

/// The window starts at the edge of the bucket holding now - window (docs/api.md §3.2
/// allows one bucket of tolerance; the engine documents this choice) and ends at now.
inline std::int64_t windowStart(std::int64_t now, std::int64_t window, std::int64_t bucket) {
  return (now - window) / bucket * bucket;
}

inline ReferenceMetrics referenceMetrics(const std::vector<RawPoint>& points, std::int64_t now,
                                         std::int64_t window, std::int64_t bucket) {
  const std::int64_t start = windowStart(now, window, bucket);
  std::vector<RawPoint> in;
  std::optional<RawPoint> before;
  for (const auto& p : points) {
    if (p.time >= start && p.time <= now) in.push_back(p);
    if (p.time < start && (!before || p.time > before->time)) before = p;
  }
  ReferenceMetrics r;
  r.n = static_cast<std::int64_t>(in.size());
  if (in.empty()) return r;
  long double sum = 0, tsum = 0;
  RawPoint first = in.front(), last = in.front();
  r.min = r.max = in.front().price;
  for (const auto& p : in) {
    sum += p.price;
    tsum += p.time;
    if (p.time < first.time) first = p;
    if (p.time > last.time) last = p;
    r.min = std::min<long double>(r.min, p.price);
    r.max = std::max<long double>(r.max, p.price);
  }
  r.mean = sum / r.n;
  const long double tmean = tsum / r.n;
  long double var = 0, tvar = 0, cov = 0;
  for (const auto& p : in) {
    var += (p.price - r.mean) * (p.price - r.mean);
    tvar += (p.time - tmean) * (p.time - tmean);
    cov += (p.time - tmean) * (p.price - r.mean);
  }
  r.stddev = std::sqrt(var / r.n);
  r.upper = r.mean + 2 * r.stddev;
  r.lower = r.mean - 2 * r.stddev;
  r.cov = r.mean == 0 ? 0 : r.stddev / r.mean;
  const long double ref = before ? before->price : first.price;
  r.percent_change = ref == 0 ? 0 : (last.price - ref) / ref * 100;
  r.trend_per_hour = tvar == 0 ? 0 : cov / tvar * 3600;
  return r;
}

/// |a - b| within 1e-9 relative, or 1e-9 absolute near zero.
inline bool close(long double expected, double actual, long double relative = 1e-9) {
  const long double diff = std::fabs(expected - static_cast<long double>(actual));
  return diff <= relative * std::max<long double>(std::fabs(expected), 1.0L);
}

}  // namespace skinpulse::test
