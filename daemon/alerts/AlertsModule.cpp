#include "alerts/AlertsModule.hpp"

#include "alerts/AlertsApi.hpp"
#include "alerts/Sender.hpp"
#include "common/Time.hpp"
#include "ingest/CycleHooks.hpp"

namespace skinpulse::alerts {

AlertsModule::AlertsModule(module::Services& services, const AlertsOptions& options) {
  store::AlertStore& store = services.database.alerts();
  SenderOptions send;
  send.allow_private_targets = options.allow_private_targets;
  send.ca_location = options.ca_location;
  sender_ = std::make_unique<Sender>(send);
  DeliveryOptions delivery;
  delivery.workers = options.delivery_workers;
  delivery.max_workers_per_user = options.max_workers_per_user;
  delivery.retry_base_seconds = options.retry_base_seconds;
  delivery.retention_days = options.delivery_retention_days;
  delivery.telegram_api_url = options.telegram_api_url;
  while (!delivery.telegram_api_url.empty() && delivery.telegram_api_url.back() == '/') {
    delivery.telegram_api_url.pop_back();
  }
  workers_ = std::make_unique<DeliveryWorkers>(
      store, *sender_, delivery,
      [this](const std::string& user, const std::string& frame) -> std::size_t {
        return frames_ != nullptr ? frames_->sendToUser(user, frame) : 0;
      },
      [] { return time::nowSeconds(); });
  service_ = std::make_unique<AlertsService>(
      store, services.catalog, services.latest,
      [this]() -> std::shared_ptr<const metrics::MetricsSnapshot> {
        return metrics_ != nullptr ? metrics_->snapshot() : nullptr;
      },
      services.price_policy, options, [] { return time::nowSeconds(); },
      [this] { workers_->wake(); });
  service_->load();
  api_ = std::make_unique<AlertsApi>(*service_);
}

AlertsModule::~AlertsModule() { stop(); }

void AlertsModule::attach(module::Services& services) {
  metrics_ = &services.registry.require<metrics::MetricsEngine>();
  frames_ = &services.registry.require<events::UserFrames>();
  auto& ingest = services.registry.require<ingest::CycleHooks>();
  ingest.addObserver(*service_);  // conditions read this cycle's metrics and prices
  // A backfill is evaluated once, by the polling instance, not by every standby.
  service_->setEvaluatesReloads([&ingest] { return ingest.polling(); });
}

void AlertsModule::registerRoutes(http::Router& router) { api_->registerRoutes(router); }

void AlertsModule::start() { workers_->start(); }

bool AlertsModule::stop() {
  if (workers_) workers_->stop();
  return true;
}

}  // namespace skinpulse::alerts
