#pragma once

// Runtime: the running daemon. It opens the services every feature shares, in
// dependency order — plugins (before anything else, so a configuration error never
// reaches the database or a socket), the database (migrations), the shared-state store,
// the catalogue, the latest-price cache and the history cache — then builds the features as one
// ordered list of modules (module/ModuleList):
//
//   auth → items → portfolio → health → metrics → ws → alerts → http server → admin
//   listener → ingest
//
// Routes are registered in that order, modules started in that order and stopped in
// reverse: ingestion stops first, then the server, then the live hub; the services are
// released last. docs/architecture.md tells how to add a module.

#include "app/AdminModule.hpp"
#include "app/ConfigLoader.hpp"
#include "app/HealthApi.hpp"
#include "app/PluginSetup.hpp"
#include "app/ServerModule.hpp"
#include "catalog/Catalog.hpp"
#include "currency/RateBook.hpp"
#include "http/Router.hpp"
#include "ingest/IngestModule.hpp"
#include "module/ModuleList.hpp"
#include "prices/HistoryCache.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "state/SharedStore.hpp"
#include "store/Database.hpp"
#include "telemetry/Registry.hpp"

#include <memory>

namespace skinpulse {

class Runtime {
 public:
  explicit Runtime(const LoadedConfig& config);
  ~Runtime();

  /// Starts every module (the HTTP server among them); logs the bound address.
  void start();
  /// Stops the modules in reverse order. False when a source fetch is still running
  /// after the grace period: the plugin it runs in must not be unloaded, so the caller
  /// exits the process.
  bool stop();

  std::uint16_t port() const { return server_ != nullptr ? server_->port() : 0; }
  /// The admin listener's bound port (0 when [admin] listen is empty).
  std::uint16_t adminPort() const { return admin_ != nullptr ? admin_->port() : 0; }

 private:
  /// Plugins, database, shared store, catalogue and latest prices, in that order.
  void openServices();
  /// The /readyz body: `detailed` (the admin listener) with plugin files, versions,
  /// sources and their errors; otherwise only the status, the components' ok and the
  /// ingest role (the public listener; docs/api.md).
  Readiness readiness(bool detailed) const;

  // The services the modules share; declared before the modules, so they outlive them.
  Settings settings_;
  Catalog catalog_;
  LatestPrices latest_;
  std::unique_ptr<PluginSet> plugins_;
  std::unique_ptr<Database> database_;
  // Sessions, CSRF, rate limits and import locks (ADR 0006).
  std::unique_ptr<state::SharedStore> shared_store_;
  // Rendered /history and /candles bodies ([items] history_cache_bytes); ingestion drops
  // an item's bodies when it stores points for it.
  std::unique_ptr<prices::HistoryCache> history_cache_;
  // Which prices every feature trusts and in what order (prices/PricePolicy.hpp): built
  // once from the sources, [metrics] and [quality], read by every consumer.
  std::unique_ptr<const prices::PricePolicy> price_policy_;
  // The newest exchange rate of each currency (docs/api.md §14): filled by the rates
  // module, read by ingest and every endpoint that takes `currency=`.
  currency::RateBook rates_;
  http::Router router_;

  module::ModuleList modules_;
  ServerModule* server_ = nullptr;  ///< owned by modules_
  AdminModule* admin_ = nullptr;    ///< owned by modules_; null when disabled
  /// The process' /proc numbers on every scrape, for as long as the runtime lives.
  telemetry::Registry::CollectorHandle process_metrics_;
  /// Owned by modules_; the sources endpoint asks it for the last successful polls.
  ingest::IngestModule* ingest_ = nullptr;
};

}  // namespace skinpulse
