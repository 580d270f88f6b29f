// coefficient_of_variation: σ / μ as a fraction, 0 when μ = 0 (docs/api.md §3.2). The
// host ranks items by 100 times this value.

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

class CoefficientOfVariationMetric final : public sdk::Metric {
 public:
  explicit CoefficientOfVariationMetric(sdk::Host&) {}

  sdk::MetricValues compute(const sdk::WindowStats& stats) const override {
    const double mean = stats.mean_price;
    return {{"coefficient_of_variation", mean == 0 ? 0.0 : sdk::populationStddev(stats) / mean}};
  }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(Metric, CoefficientOfVariationMetric, "coefficient_of_variation", "1.0.0",
                         "coefficient_of_variation: standard deviation over mean", nullptr)
