#include "portfolio/PortfolioModule.hpp"

#include "common/RandomToken.hpp"
#include "common/Time.hpp"
#include "portfolio/ImportLock.hpp"
#include "portfolio/ImportService.hpp"
#include "portfolio/ImportThrottle.hpp"
#include "portfolio/InventorySource.hpp"
#include "portfolio/PortfolioApi.hpp"

#include <algorithm>

namespace skinpulse::portfolio {

PortfolioModule::PortfolioModule(const PortfolioOptions& settings, Database& database,
                                 state::SharedStore& shared, Catalog& catalog,
                                 const LatestPrices& latest, sdk::HttpClient& http,
                                 net::RequestBudget& platform_budget) {
  InventoryFetchOptions fetch;
  fetch.base_url = settings.inventory_url;
  fetch.max_page_bytes = static_cast<std::size_t>(settings.inventory_max_bytes);
  fetch.page_timeout = std::chrono::seconds(settings.inventory_timeout_seconds);
  fetch.max_pages = kMaxInventoryPages;
  inventory_ =
      std::make_unique<PlatformInventorySource>(InventoryFetcher(http, fetch, &platform_budget));

  images_ = std::make_unique<CatalogImages>(database.catalog(), catalog);
  lock_ = std::make_unique<ImportLock>(shared, [] { return randomToken(16); });

  ImportOptions options;
  options.cooldown = std::chrono::seconds(settings.import_cooldown_seconds);
  // The lock must outlive the slowest possible fetch (every page at its timeout), and
  // the cooldown too: if setting the cooldown fails, the lock stands in for it.
  const auto slowest =
      std::chrono::seconds(kMaxInventoryPages * settings.inventory_timeout_seconds + 60);
  options.lock_hold = std::max(slowest, options.cooldown);
  throttle_ = std::make_unique<ImportThrottle>(shared, ImportThrottleOptions{},
                                               [] { return time::nowMillis(); });
  imports_ = std::make_unique<ImportService>(
      database.users(), database.holdings(), catalog, *inventory_, *lock_, *throttle_, options,
      [] { return time::nowSeconds(); }, images_.get());

  api_ = std::make_unique<PortfolioApi>(
      *imports_, database.holdings(), catalog, latest,
      PortfolioApiOptions{settings.reference_sources, settings.enabled_sources,
                          settings.exclude_outliers});
}

PortfolioModule::~PortfolioModule() = default;

void PortfolioModule::registerRoutes(http::Router& router) { api_->registerRoutes(router); }

}  // namespace skinpulse::portfolio
