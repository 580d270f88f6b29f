#pragma once

// AlertsModule: the alerts feature — the rules (AlertsService, a cycle observer that
// attaches itself after the metrics engine, so conditions read this cycle's snapshot), the
// endpoints (AlertsApi) and the delivery workers that empty the outbox (docs/api.md §13,
// docs/adr/0015-alerts.md).

#include "alerts/AlertsOptions.hpp"
#include "alerts/AlertsService.hpp"
#include "alerts/DeliveryWorkers.hpp"
#include "catalog/Catalog.hpp"
#include "events/UserFrames.hpp"
#include "metrics/MetricsEngine.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"
#include "prices/LatestPrices.hpp"
#include "store/AlertStore.hpp"

#include <memory>

namespace skinpulse::alerts {

class AlertsApi;
class Sender;

class AlertsModule final : public module::Module {
 public:
  /// Rules in the database, judged by the price policy's freshness.
  AlertsModule(module::Services& services, const AlertsOptions& options);
  /// Follows ingestion (CycleHooks: after the metrics engine, so conditions read this
  /// cycle's snapshot), reads the registry's metrics::MetricsEngine and delivers `ws`
  /// frames through its events::UserFrames.
  void attach(module::Services& services) override;
  ~AlertsModule() override;

  std::string_view name() const override { return "alerts"; }
  void registerRoutes(http::Router& router) override;
  void start() override;
  bool stop() override;

 private:
  std::unique_ptr<Sender> sender_;
  std::unique_ptr<DeliveryWorkers> workers_;
  std::unique_ptr<AlertsService> service_;
  std::unique_ptr<AlertsApi> api_;
  const metrics::MetricsEngine* metrics_ = nullptr;  ///< set by attach()
  events::UserFrames* frames_ = nullptr;             ///< set by attach()
};

}  // namespace skinpulse::alerts
