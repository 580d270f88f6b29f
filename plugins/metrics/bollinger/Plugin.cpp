// bollinger: the bands around the window's simple moving average (docs/api.md §3.2):
// middle = μ, upper = μ + 2σ, lower = μ − 2σ, σ the population standard deviation.

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

constexpr double kWidth = 2.0;  // standard deviations

class BollingerMetric final : public sdk::Metric {
 public:
  explicit BollingerMetric(sdk::Host&) {}

  sdk::MetricValues compute(const sdk::WindowStats& stats) const override {
    const double sigma = sdk::populationStddev(stats);
    return {{"bollinger.upper", stats.mean_price + kWidth * sigma},
            {"bollinger.middle", stats.mean_price},
            {"bollinger.lower", stats.mean_price - kWidth * sigma}};
  }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(Metric, BollingerMetric, "bollinger", "1.0.0",
                         "bollinger.upper/middle/lower: mean and mean ± 2 standard deviations",
                         nullptr)
