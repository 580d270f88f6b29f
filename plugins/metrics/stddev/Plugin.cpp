// stddev: rolling_stddev, the population standard deviation of the window's prices
// (docs/api.md §3.2): σ = √(Σ(p − μ)² / n).

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

class StddevMetric final : public sdk::Metric {
 public:
  explicit StddevMetric(sdk::Host&) {}

  sdk::MetricValues compute(const sdk::WindowStats& stats) const override {
    return {{"rolling_stddev", sdk::populationStddev(stats)}};
  }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(Metric, StddevMetric, "stddev", "1.0.0",
                         "rolling_stddev: population standard deviation of the window", nullptr)
