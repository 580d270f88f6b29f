#pragma once

// Runtime: the running daemon's parts, built in dependency order from validated
// Settings and torn down in reverse: plugins (before listening, so a configuration
// error never reaches a socket) → database (migrations) → shared-state store and
// sessions → catalogue → latest-price cache → HTTP API → ingestion scheduler.

#include "app/ConfigLoader.hpp"
#include "app/PluginSetup.hpp"
#include "auth/AuthApi.hpp"
#include "auth/AuthGuard.hpp"
#include "catalog/Catalog.hpp"
#include "common/PeriodicTask.hpp"
#include "events/EventBus.hpp"
#include "http/HttpServer.hpp"
#include "http/Router.hpp"
#include "http/handlers/HealthApi.hpp"
#include "http/handlers/ItemsApi.hpp"
#include "http/handlers/MetricsApi.hpp"
#include "ingest/IngestCycle.hpp"
#include "ingest/Retention.hpp"
#include "ingest/Scheduler.hpp"
#include "metrics/CandlesApi.hpp"
#include "metrics/MetricsEngine.hpp"
#include "portfolio/PortfolioModule.hpp"
#include "prices/LatestPrices.hpp"
#include "state/SharedStore.hpp"
#include "store/Database.hpp"
#include "web/WebModule.hpp"
#include "ws/LiveHub.hpp"
#include "ws/LiveUpdates.hpp"
#include "ws/WsApi.hpp"

#include <memory>

namespace skinpulse {

class Runtime {
 public:
  explicit Runtime(const LoadedConfig& config);
  ~Runtime();

  /// Starts serving HTTP; logs the bound address.
  void start();
  /// Stops polling and HTTP. False when a source fetch is still running after the grace
  /// period: the plugin it runs in must not be unloaded, so the caller exits the process.
  bool stop();

  std::uint16_t port() const { return server_ ? server_->port() : 0; }

 private:
  http::Readiness readiness() const;
  /// Shared store, sessions, rate limit, auth guard and endpoints.
  void startAuth();

  Settings settings_;
  Catalog catalog_;
  LatestPrices latest_;
  std::unique_ptr<PluginSet> plugins_;
  std::unique_ptr<Database> database_;
  // Sessions, CSRF, rate limit and the auth endpoints (daemon/auth) on the shared store.
  std::unique_ptr<state::SharedStore> shared_store_;
  std::unique_ptr<auth::SessionManager> sessions_;
  std::unique_ptr<auth::RateLimiter> auth_rate_limiter_;
  std::unique_ptr<auth::TrustedProxies> trusted_proxies_;
  std::unique_ptr<auth::AuthGuard> auth_guard_;
  std::unique_ptr<auth::AuthApi> auth_api_;
  std::unique_ptr<metrics::MetricsEngine> metrics_;
  http::Router router_;
  std::unique_ptr<http::ItemsApi> items_api_;
  std::unique_ptr<http::HealthApi> health_api_;
  std::unique_ptr<portfolio::PortfolioModule> portfolio_;  // after shared_store_: uses it
  std::unique_ptr<http::MetricsApi> metrics_api_;
  std::unique_ptr<metrics::CandlesApi> candles_api_;
  std::unique_ptr<web::WebModule> web_;
  // Live updates: declared before the server and ingestion so they outlive both.
  std::unique_ptr<events::EventBus> events_;
  std::unique_ptr<ws::LiveHub> live_hub_;
  std::unique_ptr<ws::WsApi> ws_api_;
  std::unique_ptr<ws::LiveUpdates> live_updates_;
  std::unique_ptr<http::HttpServer> server_;
  std::unique_ptr<IngestCycle> ingest_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<Retention> retention_;
  std::unique_ptr<PeriodicTask> refresh_;
};

}  // namespace skinpulse
