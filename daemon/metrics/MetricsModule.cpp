#include "metrics/MetricsModule.hpp"

#include "common/Time.hpp"

namespace skinpulse::metrics {

MetricsModule::MetricsModule(const MetricsOptions& options, const Catalog& catalog,
                             const LatestPrices& latest, MetricSet metrics, PriceStore& prices,
                             prices::HistoryCache& history_cache, const currency::RateBook& rates,
                             const prices::PricePolicy& price_policy)
    : engine_(catalog, latest, std::move(metrics), price_policy),
      api_(catalog, engine_, &rates),
      candles_(catalog, latest, prices, price_policy, CandlesApiConfig{&rates}, {}, &history_cache),
      refresh_period_(options.refresh_period) {
  engine_.rebuild(prices, time::nowSeconds());
}

}  // namespace skinpulse::metrics
