#pragma once

// MetricsModule: the volatility metrics and rankings (docs/api.md §3.1-3.2): the engine
// that keeps every series pre-aggregated (ADR 0007), rebuilt from the store at
// construction and fed by every ingestion cycle, and its two endpoints.

#include "metrics/CandlesApi.hpp"
#include "metrics/MetricsApi.hpp"
#include "metrics/MetricsEngine.hpp"
#include "metrics/MetricsOptions.hpp"
#include "module/Module.hpp"

namespace skinpulse::metrics {

class MetricsModule final : public module::Module {
 public:
  /// Reads the last MetricsEngine::kHistorySeconds of `prices`. Every reference must
  /// outlive the module; the candles keep their bodies in `history_cache`.
  MetricsModule(const MetricsOptions& options, const Catalog& catalog, const LatestPrices& latest,
                MetricSet metrics, PriceStore& prices, prices::HistoryCache& history_cache,
                const currency::RateBook& rates, const prices::PricePolicy& price_policy);

  std::string_view name() const override { return "metrics"; }
  void registerRoutes(http::Router& router) override {
    api_.registerRoutes(router);
    candles_.registerRoutes(router);
  }
  void start() override { engine_.startRefresh(refresh_period_); }
  bool stop() override {
    engine_.stopRefresh();
    return true;
  }

  /// The ingestion cycle's first observer; its snapshot feeds the live updates.
  MetricsEngine& engine() { return engine_; }

 private:
  MetricsEngine engine_;
  MetricsApi api_;
  CandlesApi candles_;  ///< from the store, not the engine (ADR 0009)
  std::chrono::seconds refresh_period_;
};

}  // namespace skinpulse::metrics
