#include "alerts/AlertsModule.hpp"

#include "alerts/AlertsApi.hpp"
#include "alerts/Sender.hpp"
#include "common/Time.hpp"

namespace skinpulse::alerts {

AlertsModule::AlertsModule(const AlertsOptions& options, AlertStore& store, const Catalog& catalog,
                           const LatestPrices& latest, MetricsProvider metrics, WsSink ws,
                           const prices::PricePolicy& price_policy) {
  SenderOptions send;
  send.allow_private_targets = options.allow_private_targets;
  send.ca_location = options.ca_location;
  sender_ = std::make_unique<Sender>(send);
  DeliveryOptions delivery;
  delivery.workers = options.delivery_workers;
  delivery.retry_base_seconds = options.retry_base_seconds;
  delivery.telegram_api_url = options.telegram_api_url;
  while (!delivery.telegram_api_url.empty() && delivery.telegram_api_url.back() == '/') {
    delivery.telegram_api_url.pop_back();
  }
  workers_ = std::make_unique<DeliveryWorkers>(store, *sender_, delivery, std::move(ws),
                                               [] { return time::nowSeconds(); });
  service_ = std::make_unique<AlertsService>(
      store, catalog, latest, std::move(metrics), price_policy, options,
      [] { return time::nowSeconds(); }, [this] { workers_->wake(); });
  service_->load();
  api_ = std::make_unique<AlertsApi>(*service_);
}

AlertsModule::~AlertsModule() { stop(); }

void AlertsModule::registerRoutes(http::Router& router) { api_->registerRoutes(router); }

void AlertsModule::start() { workers_->start(); }

bool AlertsModule::stop() {
  if (workers_) workers_->stop();
  return true;
}

}  // namespace skinpulse::alerts
