#include "metrics/MetricsModule.hpp"

#include "common/Time.hpp"
#include "ingest/CycleHooks.hpp"

namespace skinpulse::metrics {

MetricsModule::MetricsModule(module::Services& services, const MetricsOptions& options,
                             int raw_retention_days)
    : engine_(services.catalog, services.latest, std::move(services.registry.require<MetricSet>()),
              services.price_policy),
      api_(services.catalog, engine_, &services.rates),
      candles_(services.catalog, services.latest, services.database.prices(), services.price_policy,
               CandlesApiConfig{&services.rates, raw_retention_days}, {}, &services.history_cache),
      refresh_period_(options.refresh_period) {
  engine_.rebuild(services.database.prices(), time::nowSeconds());
  services.registry.provide<MetricsEngine>(engine_);
}

void MetricsModule::attach(module::Services& services) {
  services.registry.require<ingest::CycleHooks>().addObserver(engine_);
}

}  // namespace skinpulse::metrics
