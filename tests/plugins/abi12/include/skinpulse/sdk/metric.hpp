#pragma once

// Metric: a plugin that turns the statistics of one price series over one window into
// named numbers (e.g. "rolling_stddev"). Metrics are pure functions of WindowStats: no
// I/O, no state, callable from any thread concurrently.
//
// How the host uses a metric (docs/plugin-guide.md, "Metric plugins"):
//  - The series is the item's reference source for the window (docs/api.md §3.1) and
//    the window is (now − W, now], its old edge aligned to a bucket edge (1 min for 1h,
//    5 min for 24h, 1 h for 7d). compute() runs once per item and window after every
//    ingestion cycle, so keep it cheap and allocation-light.
//  - compute() is only called with n >= 2. When an item has no source with two points in
//    the window the host writes 0 for every name the metric returns.
//  - The names must be the same on every call: the host learns them once, at start, from
//    a probe window of three points. A name is `field` or `group.field` ([a-z0-9_]+); the
//    fields of one group become a nested object ("bollinger": {"upper": ...}). Names must
//    not clash with another metric's or with the host's own fields (item_id, window,
//    source, samples, computed_at): the daemon refuses to start otherwise.
//  - A value that is not finite is written as JSON null. An exception from compute()
//    makes that metric's fields null for that item (logged once).

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace skinpulse::sdk {

/// Sufficient statistics of the points (t_i, p_i), i = 1..n, of one item and one source
/// with t_i inside the window. Prices are cents, times Unix seconds. The host computes
/// the second moments around the means (numerically stable), so plugins never subtract
/// large nearly-equal sums.
struct WindowStats {
  std::int64_t window_seconds = 0;  ///< 3600, 86400 or 604800
  std::int64_t now = 0;             ///< evaluation time; the window is (now - window, now]
  std::int64_t n = 0;
  double mean_price = 0;  ///< Σp / n
  double m2_price = 0;    ///< Σ(p - mean_price)²
  double mean_time = 0;   ///< Σt / n
  double m2_time = 0;     ///< Σ(t - mean_time)²
  double co_moment = 0;   ///< Σ(t - mean_time)(p - mean_price)
  std::int64_t first_time = 0, last_time = 0;
  double first_price = 0, last_price = 0;
  double min_price = 0, max_price = 0;
  /// Newest price of the same source at or before the window's start, when one exists.
  bool has_price_before = false;
  double price_before = 0;
};

/// Named results; the host merges them into the Volatility metrics object. A name with
/// a dot ("bollinger.upper") becomes a nested field.
using MetricValues = std::vector<std::pair<std::string, double>>;

/// σ = √(m2_price / n), the population standard deviation; 0 for an empty window.
inline double populationStddev(const WindowStats& stats) {
  return stats.n > 0 ? std::sqrt(stats.m2_price / static_cast<double>(stats.n)) : 0.0;
}

class Metric {
 public:
  virtual MetricValues compute(const WindowStats& stats) const = 0;

 protected:
  virtual ~Metric() = default;
};

}  // namespace skinpulse::sdk
