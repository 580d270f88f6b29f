#pragma once

// PortfolioModule: the portfolio feature assembled from the daemon's parts, so Runtime
// adds it with one line. Owns its HTTP client (the platform is one more upstream with a
// timeout and a byte cap), the inventory source, the cooldown lock, the import service
// and the HTTP handlers.

#include "skinpulse/sdk/host.hpp"

#include "catalog/Catalog.hpp"
#include "catalog/CatalogImages.hpp"
#include "currency/RateBook.hpp"
#include "module/Module.hpp"
#include "net/RequestBudget.hpp"
#include "portfolio/PortfolioOptions.hpp"
#include "portfolio/Valuation.hpp"
#include "prices/LatestPrices.hpp"
#include "state/SharedStore.hpp"
#include "store/Database.hpp"

#include <memory>

namespace skinpulse {
class PeriodicTask;
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
  /// Every reference must outlive the module. `http` is the host HTTP client (its
  /// timeouts and byte cap apply to every inventory page); every page also takes a token
  /// of `platform_budget`, the game platform's budget shared with the source plugins.
  /// `catalog` is written only to show pictures an import filled in. `change` gives the
  /// items' 24 h changes (docs/api.md §15); `rates` converts answers asked for in another
  /// currency (docs/api.md §14).
  PortfolioModule(const PortfolioOptions& options, Database& database, state::SharedStore& shared,
                  Catalog& catalog, const LatestPrices& latest, sdk::HttpClient& http,
                  net::RequestBudget& platform_budget, const prices::PricePolicy& price_policy,
                  ChangeLookup change = {},
                  const currency::RateBook& rates = currency::RateBook::none());
  ~PortfolioModule() override;

  std::string_view name() const override { return "portfolio"; }
  void registerRoutes(http::Router& router) override;
  /// Starts the hourly value snapshots; stop() ends them.
  void start() override;
  bool stop() override;

 private:
  std::unique_ptr<PlatformInventorySource> inventory_;
  std::unique_ptr<CatalogImages> images_;
  std::unique_ptr<ImportLock> lock_;
  std::unique_ptr<ImportThrottle> throttle_;
  std::unique_ptr<ImportService> imports_;
  std::unique_ptr<PortfolioValuer> valuer_;
  std::unique_ptr<ValueSnapshots> snapshots_;
  std::unique_ptr<PeriodicTask> snapshot_task_;
  std::unique_ptr<PortfolioApi> api_;
};

}  // namespace skinpulse::portfolio
