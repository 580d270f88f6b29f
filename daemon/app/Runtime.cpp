#include "app/Runtime.hpp"

#include "app/AdminModule.hpp"
#include "app/ModuleTable.hpp"
#include "app/ServerModule.hpp"
#include "catalog/CatalogSeeder.hpp"
#include "common/Log.hpp"
#include "state/MeasuredSharedStore.hpp"
#include "state/SharedStoreFactory.hpp"
#include "telemetry/ProcessMetrics.hpp"

#include <stdexcept>

namespace skinpulse::app {
namespace {

// Every configured source instance in configuration order, with the kind its plugin
// resolved for the enabled ones: what the price policy judges freshness and order by.
std::vector<prices::SourceProfile> sourceProfiles(const Settings& s, const PluginSet& plugins) {
  std::vector<prices::SourceProfile> profiles;
  for (const auto& configured : s.sources) {
    prices::SourceProfile profile{
        configured.name,         configured.plugin,           configured.kind,
        configured.enabled,      configured.interval_seconds, configured.fee_percent,
        configured.fresh_seconds};
    for (const auto& resolved : plugins.sourceSettings()) {
      if (resolved.name == configured.name) profile.kind = resolved.kind;
    }
    profiles.push_back(std::move(profile));
  }
  return profiles;
}

}  // namespace

Runtime::Runtime(const LoadedConfig& config) : settings_(config.settings) {
  log::main().info(
      "configuration: {}{}", config.main_file.empty() ? "built-in defaults" : config.main_file,
      config.drop_ins.empty() ? ""
                              : " + " + std::to_string(config.drop_ins.size()) + " drop-in(s)");
  openServices();
  services_ = std::make_unique<module::Services>(module::Services{
      catalog_, latest_, *database_, *shared_store_, *history_cache_, rates_, *price_policy_,
      router_, registry_, settings_.base_url, settings_.share_dir, settings_.redis_url});
  plugins_->provideTo(registry_);
  readiness_ = std::make_unique<ReadinessReport>(*services_, *plugins_, modules_, drain_);
  registry_.provide(*readiness_);

  // The module table, in order: built, then attached, then their routes registered.
  for (const auto& entry : moduleTable()) {
    auto built = entry.build(settings_, *services_);
    if (!built) continue;  // turned off by the configuration
    if (built->name() != entry.name) {
      throw std::logic_error("module table entry " + std::string(entry.name) + " built " +
                             std::string(built->name()));
    }
    modules_.add(std::move(built));
  }
  server_ = modules_.find<ServerModule>();
  admin_ = modules_.find<AdminModule>();
  modules_.attach(*services_);
  process_metrics_ = telemetry::Registry::global().addCollector(telemetry::collectProcess);
  modules_.registerRoutes(router_);
}

void Runtime::openServices() {
  plugins_ = std::make_unique<PluginSet>(settings_, catalog_);
  database_ = store::openDatabase(settings_.database_url, settings_.share_dir + "/sql");
  log::main().info("database: {} (schema version {})", database_->backend(),
                   database_->schemaVersion());
  // Timed and counted for skinpulse_shared_store_* (docs/operations.md, "Prometheus metrics").
  shared_store_ = std::make_unique<state::MeasuredSharedStore>(
      state::openSharedStore(settings_.redis_url, *database_));
  log::main().info(
      "shared state: {}{}", shared_store_->backend(),
      shared_store_->ping() ? "" : " (not reachable yet; session endpoints answer 503)");
  catalog::seedCatalog(database_->catalog(), settings_.catalog_file);
  catalog_.reset(database_->catalog().allItems());
  // Rate-limited sources poll held items first (docs/api.md §1.2).
  catalog_.setHeldItems(
      [database = database_.get()] { return database->holdings().heldItemIds(); });
  latest_.reset(database_->prices().latestPerItemSource());
  history_cache_ = std::make_unique<prices::HistoryCache>(
      prices::HistoryCacheOptions{static_cast<std::size_t>(settings_.items.history_cache_bytes),
                                  settings_.items.history_cache_ttl_seconds});
  // The one price policy every consumer reads (prices/PricePolicy.hpp).
  price_policy_ = std::make_unique<prices::PricePolicy>(
      sourceProfiles(settings_, *plugins_), settings_.metrics_options.reference_sources,
      settings_.quality.exclude_outliers, settings_.quality.outlier_factor);
}

Runtime::~Runtime() { stop(); }

void Runtime::start() { modules_.start(); }

std::chrono::seconds Runtime::beginDrain() {
  drain_.begin();
  // A balancer probes every few seconds; a minute covers the slowest usual settings.
  constexpr auto kProbeWindow = std::chrono::seconds(60);
  if (!drain_.probedWithin(kProbeWindow)) return std::chrono::seconds(0);
  return std::chrono::seconds(settings_.http.drain_seconds);
}

bool Runtime::stop() { return modules_.stop(); }

std::uint16_t Runtime::port() const { return server_ != nullptr ? server_->port() : 0; }

std::uint16_t Runtime::adminPort() const { return admin_ != nullptr ? admin_->port() : 0; }

}  // namespace skinpulse::app
