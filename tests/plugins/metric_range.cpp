// Test plugin: a third-party metric with a nested group, for the test that an unknown
// metric appears in the Volatility metrics object without any host change:
// "price_range": {"absolute": max - min, "relative": (max - min) / mean}.

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

class PriceRangeMetric final : public sdk::Metric {
 public:
  explicit PriceRangeMetric(sdk::Host&) {}

  sdk::MetricValues compute(const sdk::WindowStats& stats) const override {
    const double range = stats.max_price - stats.min_price;
    return {{"price_range.absolute", range},
            {"price_range.relative", stats.mean_price == 0 ? 0.0 : range / stats.mean_price}};
  }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(Metric, PriceRangeMetric, "range", "0.1.0",
                         "test metric: absolute and relative price range", nullptr)
