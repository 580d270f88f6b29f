// Test plugin: a metric answering the window's price range.

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

class RangeMetric final : public sdk::Metric {
 public:
  explicit RangeMetric(sdk::Host&) {}

  sdk::MetricValues compute(const sdk::WindowStats& stats) const override {
    return {{"range", stats.max_price - stats.min_price}};
  }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(Metric, RangeMetric, "good", "0.1.0", "test metric: max - min", nullptr)
