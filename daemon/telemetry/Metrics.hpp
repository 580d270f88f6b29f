#pragma once

// Counter, Gauge and Histogram: the values a Prometheus scrape reads (docs/operations.md,
// "Prometheus metrics"). Each is one atomic (a histogram: one per bucket plus the sum), updated
// lock-free with relaxed ordering: the hot paths (a request, a WebSocket write) pay one
// atomic add, and a scrape reads a value that is at most one update behind, which is
// all Prometheus asks for.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace skinpulse::telemetry {

/// Only goes up (a restart starts it at 0 again; Prometheus' rate() knows).
class Counter {
 public:
  void inc(std::uint64_t n = 1) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  std::uint64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> value_{0};
};

/// Goes up and down, or is set.
class Gauge {
 public:
  void set(double value) noexcept { value_.store(value, std::memory_order_relaxed); }
  void add(double delta) noexcept { value_.fetch_add(delta, std::memory_order_relaxed); }
  double value() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

/// Observations counted into fixed buckets (upper bounds, ascending; +Inf is implied).
class Histogram {
 public:
  /// `bounds` ascending and finite; throws std::invalid_argument otherwise.
  explicit Histogram(std::vector<double> bounds);

  void observe(double value) noexcept;

  struct Snapshot {
    std::vector<std::uint64_t> cumulative;  ///< one per bound, then +Inf (= count)
    double sum = 0;
  };
  /// Cumulative counts as the text format wants them. Read bucket by bucket while
  /// observations go on, so a bucket may be one observation ahead of the sum.
  Snapshot snapshot() const;
  const std::vector<double>& bounds() const { return bounds_; }

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> buckets_;  ///< bounds_.size() + 1 (+Inf)
  std::atomic<double> sum_{0.0};
};

/// Bucket sets for the usual units: seconds of an HTTP request or a store call, seconds of
/// a whole ingestion cycle.
std::vector<double> latencyBuckets();
std::vector<double> cycleBuckets();

}  // namespace skinpulse::telemetry
