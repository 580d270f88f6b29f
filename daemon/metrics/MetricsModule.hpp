#pragma once

// MetricsModule: the volatility metrics and rankings (docs/api.md §3.1-3.2): the engine
// that keeps every series pre-aggregated (ADR 0007), rebuilt from the store at
// construction and fed by every ingestion cycle, and its two endpoints.

#include "metrics/CandlesApi.hpp"
#include "metrics/MetricsApi.hpp"
#include "metrics/MetricsEngine.hpp"
#include "metrics/MetricsOptions.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"

namespace skinpulse::metrics {

class MetricsModule final : public module::Module {
 public:
  /// Reads the last MetricsEngine::kHistorySeconds of the stored prices; takes the
  /// registry's MetricSet (the metric plugins: this module alone runs them) and provides
  /// its MetricsEngine there, whose snapshot live updates, alerts and the portfolio read.
  /// The candles keep their bodies in the history cache, and read windows inside
  /// `raw_retention_days` ([storage] retention_days) from the raw points when outliers
  /// count (metrics/CandlesReader.hpp).
  MetricsModule(module::Services& services, const MetricsOptions& options, int raw_retention_days);

  /// The engine follows every ingestion cycle, first of the observers.
  void attach(module::Services& services) override;

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

  MetricsEngine& engine() { return engine_; }

 private:
  MetricsEngine engine_;
  MetricsApi api_;
  CandlesApi candles_;  ///< from the store, not the engine (ADR 0009)
  std::chrono::seconds refresh_period_;
};

}  // namespace skinpulse::metrics
