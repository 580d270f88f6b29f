#include "portfolio/PortfolioModule.hpp"

#include "common/Log.hpp"
#include "common/PeriodicTask.hpp"
#include "common/RandomToken.hpp"
#include "common/Time.hpp"
#include "metrics/MetricsEngine.hpp"
#include "portfolio/ImportLock.hpp"
#include "portfolio/ImportService.hpp"
#include "portfolio/ImportThrottle.hpp"
#include "portfolio/InventorySource.hpp"
#include "portfolio/PortfolioApi.hpp"
#include "portfolio/PortfolioValuer.hpp"
#include "portfolio/ValueSnapshots.hpp"

#include <algorithm>

namespace skinpulse::portfolio {

PortfolioModule::PortfolioModule(module::Services& services, const PortfolioOptions& settings) {
  store::Database& database = services.database;
  state::SharedStore& shared = services.shared_store;
  catalog::Catalog& catalog = services.catalog;
  auto& http = services.registry.require<sdk::HttpClient>();
  auto& platform_budget = services.registry.require<net::RequestBudget>();
  InventoryFetchOptions fetch;
  fetch.base_url = settings.inventory_url;
  fetch.max_page_bytes = static_cast<std::size_t>(settings.inventory_max_bytes);
  fetch.page_timeout = std::chrono::seconds(settings.inventory_timeout_seconds);
  fetch.max_pages = kMaxInventoryPages;
  inventory_ =
      std::make_unique<PlatformInventorySource>(InventoryFetcher(http, fetch, &platform_budget));

  images_ = std::make_unique<catalog::CatalogImages>(database.catalog(), catalog);
  lock_ = std::make_unique<ImportLock>(shared, [] { return common::randomToken(16); });

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

  valuer_ = std::make_unique<PortfolioValuer>(
      catalog, services.latest, services.price_policy,
      [this](std::int64_t item_id) { return change(item_id); }, settings.applied_value_percent);
  // The units an import finds gone keep the price they had then (docs/api.md §23.4).
  imports_->setUnitPrices([this](std::int64_t item_id) {
    return valuer_->unitPrices({item_id}, time::nowSeconds()).front();
  });
  snapshots_ = std::make_unique<ValueSnapshots>(
      database.snapshots(), *valuer_, std::int64_t{settings.history_retention_days} * 86400,
      &database.holdings());
  // The first pass soon after start (a restart keeps the hour's point fresh), then one per
  // interval. Prices are loaded before modules start (app/Runtime).
  const auto period = std::chrono::milliseconds(settings.snapshot_interval_seconds * 1000LL);
  snapshot_task_ = std::make_unique<common::PeriodicTask>(
      "portfolio snapshots", std::min(period, std::chrono::milliseconds(30'000)), period, [this] {
        const auto outcome = snapshots_->takeAll(time::nowSeconds());
        log::main().info("portfolio: value snapshots of {} user(s) over {} item(s), {} pruned",
                         outcome.users, outcome.items, outcome.pruned);
      });
  api_ = std::make_unique<PortfolioApi>(*imports_, database.holdings(), *valuer_, *snapshots_,
                                        services.rates, catalog, database.users(),
                                        settings.applied_value_percent);
}

void PortfolioModule::attach(module::Services& services) {
  metrics_ = &services.registry.require<metrics::MetricsEngine>();
}

// An item's 24h percent_change (docs/api.md §3.2); empty without a reference source in the
// window.
std::optional<double> PortfolioModule::change(std::int64_t item_id) const {
  static const std::size_t window = *metrics::windowIndex("24h");
  if (metrics_ == nullptr) return std::nullopt;
  const auto* signal = metrics_->snapshot()->signal(item_id, window);
  if (signal == nullptr || !signal->reference) return std::nullopt;
  return signal->percent_change;
}

PortfolioModule::~PortfolioModule() = default;

void PortfolioModule::start() { snapshot_task_->start(); }

bool PortfolioModule::stop() {
  snapshot_task_->stop();
  return true;
}

void PortfolioModule::registerRoutes(http::Router& router) { api_->registerRoutes(router); }

}  // namespace skinpulse::portfolio
