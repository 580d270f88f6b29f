// percent_change: (p_last − p_ref) / p_ref × 100 (docs/api.md §3.2). p_ref is the newest
// price of the series at or before the window's start, or, when there is none, the
// oldest price in the window. A zero p_ref gives 0 (no percentage of nothing).

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

class PercentChangeMetric final : public sdk::Metric {
 public:
  explicit PercentChangeMetric(sdk::Host&) {}

  sdk::MetricValues compute(const sdk::WindowStats& stats) const override {
    const double reference = stats.has_price_before ? stats.price_before : stats.first_price;
    const double change =
        stats.n == 0 || reference == 0 ? 0.0 : (stats.last_price - reference) / reference * 100.0;
    return {{"percent_change", change}};
  }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(Metric, PercentChangeMetric, "percent_change", "1.0.0",
                         "percent_change: last price against the one before the window", nullptr)
