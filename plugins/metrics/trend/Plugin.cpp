// trend: trend_score, the least-squares slope of price against time in cents per hour
// (docs/api.md §3.2): Σ(t − t̄)(p − p̄) / Σ(t − t̄)² × 3600. 0 when every point has the
// same time (no slope to fit).

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

constexpr double kSecondsPerHour = 3600.0;

class TrendMetric final : public sdk::Metric {
 public:
  explicit TrendMetric(sdk::Host&) {}

  sdk::MetricValues compute(const sdk::WindowStats& stats) const override {
    const double slope = stats.m2_time > 0 ? stats.co_moment / stats.m2_time : 0.0;
    return {{"trend_score", slope * kSecondsPerHour}};
  }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(Metric, TrendMetric, "trend", "1.0.0",
                         "trend_score: least-squares slope of price over time, cents per hour",
                         nullptr)
