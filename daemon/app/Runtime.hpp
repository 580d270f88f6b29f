#pragma once

// Runtime: the running daemon. It opens the services every module shares, in dependency
// order — plugins (before anything else, so a configuration error never reaches the
// database or a socket), the database (migrations), the shared-state store, the
// catalogue, the latest-price cache, the history cache and the price policy — hands them
// to every module as module::Services, then builds the modules of the module table
// (app/ModuleTable.cpp, the one place their order is written), attaches them, registers
// their routes, starts them in table order and stops them in reverse. The services are
// released last. docs/architecture.md tells how to add a module.

#include "app/ConfigLoader.hpp"
#include "app/DrainState.hpp"
#include "app/PluginSetup.hpp"
#include "app/Readiness.hpp"
#include "catalog/Catalog.hpp"
#include "currency/RateBook.hpp"
#include "http/Router.hpp"
#include "module/ModuleList.hpp"
#include "module/Registry.hpp"
#include "module/Services.hpp"
#include "prices/HistoryCache.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "state/SharedStore.hpp"
#include "store/Database.hpp"
#include "telemetry/Registry.hpp"

#include <memory>

namespace skinpulse::app {

class AdminModule;
class ServerModule;

class Runtime {
 public:
  explicit Runtime(const LoadedConfig& config);
  ~Runtime();

  /// Starts every module (the HTTP server among them); logs the bound address.
  void start();
  /// GET /readyz answers 503 "draining" from now on; everything else is still served.
  /// Returns how long to keep serving before stop(): [http] drain_seconds when a readiness
  /// probe came in within the last minute, else zero (no balancer routes by our
  /// readiness, so there is nobody to tell).
  std::chrono::seconds beginDrain();
  /// Stops the modules in reverse order. False when a source fetch is still running
  /// after the grace period: the plugin it runs in must not be unloaded, so the caller
  /// exits the process.
  bool stop();

  std::uint16_t port() const;
  /// The admin listener's bound port (0 when [admin] listen is empty).
  std::uint16_t adminPort() const;
  /// The modules built, in start order.
  std::vector<std::string_view> moduleNames() const { return modules_.names(); }

 private:
  /// Plugins, database, shared store, catalogue and latest prices, in that order.
  void openServices();

  // The services the modules share; declared before the modules, so they outlive them.
  Settings settings_;
  catalog::Catalog catalog_;
  prices::LatestPrices latest_;
  std::unique_ptr<PluginSet> plugins_;
  std::unique_ptr<store::Database> database_;
  std::unique_ptr<state::SharedStore> shared_store_;
  std::unique_ptr<prices::HistoryCache> history_cache_;
  currency::RateBook rates_;
  std::unique_ptr<prices::PricePolicy> price_policy_;
  http::Router router_;
  module::Registry registry_;
  std::unique_ptr<module::Services> services_;
  DrainState drain_;
  std::unique_ptr<ReadinessReport> readiness_;

  module::ModuleList modules_;
  ServerModule* server_ = nullptr;  ///< owned by modules_
  AdminModule* admin_ = nullptr;    ///< owned by modules_; null when disabled
  /// The process' /proc numbers on every scrape, for as long as the runtime lives.
  telemetry::Registry::CollectorHandle process_metrics_;
};

}  // namespace skinpulse::app
