#pragma once

// AlertsModule: the alerts feature assembled for app/Runtime — the rules (AlertsService,
// a cycle observer Runtime registers after the metrics engine, so conditions read this
// cycle's snapshot), the endpoints (AlertsApi) and the delivery workers that empty the
// outbox (docs/api.md §13, docs/adr/0015-alerts.md).

#include "alerts/AlertsOptions.hpp"
#include "alerts/AlertsService.hpp"
#include "alerts/DeliveryWorkers.hpp"
#include "catalog/Catalog.hpp"
#include "module/Module.hpp"
#include "prices/LatestPrices.hpp"
#include "store/AlertStore.hpp"

#include <memory>

namespace skinpulse::alerts {

class AlertsApi;
class Sender;

class AlertsModule final : public module::Module {
 public:
  /// Every reference must outlive the module. `ws` sends `{"type":"alert"}` frames to a
  /// user's signed-in WebSocket connections (may be empty: ws deliveries then fail).
  AlertsModule(const AlertsOptions& options, AlertStore& store, const Catalog& catalog,
               const LatestPrices& latest, MetricsProvider metrics, WsSink ws,
               const prices::PricePolicy& price_policy);
  ~AlertsModule() override;

  std::string_view name() const override { return "alerts"; }
  void registerRoutes(http::Router& router) override;
  void start() override;
  bool stop() override;

  /// The cycle observer to register with ingestion.
  AlertsService& service() { return *service_; }

 private:
  std::unique_ptr<Sender> sender_;
  std::unique_ptr<DeliveryWorkers> workers_;
  std::unique_ptr<AlertsService> service_;
  std::unique_ptr<AlertsApi> api_;
};

}  // namespace skinpulse::alerts
