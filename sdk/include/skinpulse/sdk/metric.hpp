#pragma once

// Metric: a plugin that turns the statistics of one price series over one window into
// named numbers (e.g. "rolling_stddev"). Metrics are pure functions of WindowStats: no
// I/O, no state, callable from any thread concurrently.

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

class Metric {
 public:
  virtual MetricValues compute(const WindowStats& stats) const = 0;

 protected:
  virtual ~Metric() = default;
};

}  // namespace skinpulse::sdk
