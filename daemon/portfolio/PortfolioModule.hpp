#pragma once

// PortfolioModule: the portfolio feature assembled from the daemon's parts, so the module
// table adds it with one entry. Owns its HTTP client (the platform is one more upstream with a
// timeout and a byte cap), the inventory source, the cooldown lock, the import service
// and the HTTP handlers.

#include "skinpulse/sdk/host.hpp"

#include "catalog/Catalog.hpp"
#include "catalog/CatalogImages.hpp"
#include "currency/RateBook.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"
#include "net/RequestBudget.hpp"
#include "portfolio/PortfolioOptions.hpp"
#include "portfolio/Valuation.hpp"
#include "prices/LatestPrices.hpp"
#include "state/SharedStore.hpp"
#include "store/Database.hpp"

#include <memory>

namespace skinpulse::common {
class PeriodicTask;
}  // namespace skinpulse::common

namespace skinpulse::metrics {
class MetricsEngine;
}

namespace skinpulse::portfolio {

class ImportLock;
class ImportService;
class ImportThrottle;
class PortfolioApi;
class PlatformInventorySource;
class PortfolioValuer;
class ValueSnapshots;

/// Pages an import may read: docs/api.md §6 (more is inventory_too_large).
constexpr int kMaxInventoryPages = 50;

class PortfolioModule final : public module::Module {
 public:
  /// Reads the shared services; every inventory page goes through the registry's
  /// sdk::HttpClient (the host client: its timeouts and byte cap apply) and takes a token
  /// of its net::RequestBudget (the game platform's, shared with the source plugins). The
  /// catalogue is written only to show pictures an import filled in; the rate book
  /// converts answers asked for in another currency (docs/api.md §14).
  PortfolioModule(module::Services& services, const PortfolioOptions& options);
  /// The items' 24 h changes (docs/api.md §15) come from the registry's
  /// metrics::MetricsEngine.
  void attach(module::Services& services) override;
  ~PortfolioModule() override;

  std::string_view name() const override { return "portfolio"; }
  void registerRoutes(http::Router& router) override;
  /// Starts the hourly value snapshots; stop() ends them.
  void start() override;
  bool stop() override;

 private:
  std::unique_ptr<PlatformInventorySource> inventory_;
  std::unique_ptr<catalog::CatalogImages> images_;
  std::unique_ptr<ImportLock> lock_;
  std::unique_ptr<ImportThrottle> throttle_;
  std::unique_ptr<ImportService> imports_;
  std::unique_ptr<PortfolioValuer> valuer_;
  std::unique_ptr<ValueSnapshots> snapshots_;
  std::unique_ptr<common::PeriodicTask> snapshot_task_;
  std::unique_ptr<PortfolioApi> api_;
  std::optional<double> change(std::int64_t item_id) const;

  const metrics::MetricsEngine* metrics_ = nullptr;  ///< set by attach()
};

}  // namespace skinpulse::portfolio
