#include "app/Runtime.hpp"

#include "alerts/AlertsModule.hpp"
#include "app/CycleStageMetrics.hpp"
#include "auth/AuthModule.hpp"
#include "catalog/CatalogSeeder.hpp"
#include "common/Log.hpp"
#include "ingest/IngestModule.hpp"
#include "items/ItemsModule.hpp"
#include "metrics/MetricsModule.hpp"
#include "portfolio/PortfolioModule.hpp"
#include "quality/QualityModule.hpp"
#include "rates/RatesModule.hpp"
#include "state/MeasuredSharedStore.hpp"
#include "state/SharedStoreFactory.hpp"
#include "telemetry/ProcessMetrics.hpp"
#include "web/ApiDocumentModule.hpp"
#include "web/WebModule.hpp"
#include "ws/WsModule.hpp"

namespace skinpulse {
namespace {

// The options of features, completed from the validated settings.

// Every configured source instance in configuration order; the enabled ones with the
// kind their plugin resolved.
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

// The one price policy (docs/api.md §3.1, §12): the place the reference order, freshness
// and outlier rules are decided for every consumer.
std::unique_ptr<const prices::PricePolicy> pricePolicy(const Settings& s,
                                                       const PluginSet& plugins) {
  return std::make_unique<const prices::PricePolicy>(
      sourceProfiles(s, plugins), s.metrics_options.reference_sources, s.quality.exclude_outliers,
      s.quality.outlier_factor);
}

items::ItemsOptions itemsOptions(const Settings& s) {
  items::ItemsOptions options = s.items;
  options.base_url = s.base_url;
  return options;
}

std::vector<rates::RatesPoller::Instance> ratesInstances(const PluginSet& plugins) {
  std::vector<rates::RatesPoller::Instance> instances;
  for (std::size_t i = 0; i < plugins.rates().size(); ++i) {
    instances.push_back({plugins.ratesSettings()[i], plugins.rates()[i].get()});
  }
  return instances;
}

prices::HistoryCacheOptions historyCacheOptions(const Settings& s) {
  return prices::HistoryCacheOptions{static_cast<std::size_t>(s.items.history_cache_bytes),
                                     s.items.history_cache_ttl_seconds};
}

// "https://host[:port]" of BASE_URL: what a browser sends as Origin from our pages.
std::string originOf(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return "";
  return url.substr(0, url.find('/', scheme + 3));
}

ws::WsOptions wsOptions(const Settings& s) {
  ws::WsOptions options;
  options.redis_url = s.redis_url;
  options.signed_in_origin = originOf(s.base_url);
  return options;
}

http::ServerOptions serverOptions(const Settings& s, const http::RequestGuard& guard) {
  for (const auto& key : s.deprecated_keys) {
    log::main().warn(
        "{} is deprecated and ignored: the HTTP server runs event loops and "
        "[http] worker_threads (docs/adr/0010-front-door.md)",
        key);
  }
  http::ServerOptions options;
  options.host = s.listen_host;
  options.port = s.listen_port;
  options.event_threads = s.event_threads;
  options.worker_threads = s.worker_threads;
  options.worker_queue = s.worker_queue;
  options.max_connections = static_cast<std::size_t>(s.max_connections);
  options.max_connections_per_ip = static_cast<std::size_t>(s.max_connections_per_ip);
  options.head.max_line_bytes = static_cast<std::size_t>(s.max_request_line_bytes);
  options.head.max_header_bytes = static_cast<std::size_t>(s.max_header_bytes);
  options.max_body_bytes = static_cast<std::size_t>(s.max_body_bytes);
  options.head_timeout = std::chrono::seconds(s.head_timeout_seconds);
  options.body_timeout = std::chrono::seconds(s.body_timeout_seconds);
  options.idle_timeout = std::chrono::seconds(s.keep_alive_timeout_seconds);
  options.write_timeout = std::chrono::seconds(s.write_timeout_seconds);
  options.max_keep_alive_requests = s.max_keep_alive_requests;
  options.access_log = s.access_log;
  options.record_metrics = true;
  options.guard = &guard;
  return options;
}

std::vector<auth::ProviderEntry> identityProviders(const PluginSet& plugins) {
  std::vector<auth::ProviderEntry> providers;
  for (const auto& instance : plugins.identityProviders()) {
    providers.push_back(auth::ProviderEntry{instance.instanceName(), instance.get()});
  }
  return providers;
}

std::vector<Scheduler::Source> scheduledSources(const PluginSet& plugins) {
  std::vector<Scheduler::Source> sources;
  for (std::size_t i = 0; i < plugins.sources().size(); ++i) {
    const auto& source = plugins.sourceSettings()[i];
    sources.push_back(Scheduler::Source{source.name, source.plugin, plugins.sources()[i].get(),
                                        source.interval_seconds, source.timeout_seconds,
                                        plugins.sources()[i].fetchQuotes(), source.kind,
                                        plugins.sources()[i].pollEntry()});
  }
  return sources;
}

web::WebOptions webOptions(const Settings& settings, const PluginSet& plugins) {
  web::WebOptions web{settings.dashboard_enabled,
                      settings.share_dir + "/www",
                      settings.base_url.rfind("https://", 0) == 0,
                      {}};
  for (const auto& instance : plugins.identityProviders()) {
    web.providers.push_back(instance.instanceName());
  }
  return web;
}

// The 24h Volatility object of an item, as the live updates' volatility frames carry it.
ws::VolatilityProvider volatilityOf(const metrics::MetricsEngine& engine) {
  return [&engine](std::int64_t item_id) -> std::optional<std::string> {
    const auto object = engine.snapshot()->volatility(item_id, "24h");
    if (object.empty()) return std::nullopt;
    return std::string(object);
  };
}

// An item's 24h percent_change (docs/api.md §3.2) for the portfolio; empty without a
// reference source in the window.
portfolio::ChangeLookup changeOf(const metrics::MetricsEngine& engine) {
  return [&engine,
          window = *metrics::windowIndex("24h")](std::int64_t item_id) -> std::optional<double> {
    const auto* signal = engine.snapshot()->signal(item_id, window);
    if (signal == nullptr || !signal->reference) return std::nullopt;
    return signal->percent_change;
  };
}

}  // namespace

Runtime::Runtime(const LoadedConfig& config) : settings_(config.settings) {
  log::main().info(
      "configuration: {}{}", config.main_file.empty() ? "built-in defaults" : config.main_file,
      config.drop_ins.empty() ? ""
                              : " + " + std::to_string(config.drop_ins.size()) + " drop-in(s)");
  openServices();
  history_cache_ = std::make_unique<prices::HistoryCache>(historyCacheOptions(settings_));
  price_policy_ = pricePolicy(settings_, *plugins_);

  // The features, in start order (stopped in reverse). Rates first: the stored ones are
  // loaded on construction and the first polls run before ingestion starts.
  modules_.add(
      std::make_unique<rates::RatesModule>(ratesInstances(*plugins_), rates_, &database_->rates()));
  auto& auth = modules_.add(std::make_unique<auth::AuthModule>(
      settings_.auth, *shared_store_, database_->users(), identityProviders(*plugins_)));
  modules_.add(std::make_unique<items::ItemsModule>(itemsOptions(settings_), catalog_, latest_,
                                                    database_->prices(), *history_cache_, rates_,
                                                    *price_policy_));
  modules_.add(std::make_unique<quality::QualityModule>(
      catalog_, latest_, *price_policy_,
      [this] { return ingest_ != nullptr ? ingest_->pollStates() : quality::PollStates{}; },
      rates_));
  modules_.add(std::make_unique<HealthApi>([this] { return readiness(false); }));
  modules_.add(std::make_unique<web::WebModule>(webOptions(settings_, *plugins_)));
  modules_.add(std::make_unique<web::ApiDocumentModule>(settings_.share_dir + "/openapi"));
  auto& metrics = modules_.add(std::make_unique<metrics::MetricsModule>(
      settings_.metrics_options, catalog_, latest_, plugins_->metricSet(), database_->prices(),
      *history_cache_, rates_, *price_policy_));
  modules_.add(std::make_unique<portfolio::PortfolioModule>(
      settings_.portfolio, *database_, *shared_store_, catalog_, latest_, plugins_->httpClient(),
      plugins_->platformBudget(), *price_policy_, changeOf(metrics.engine()), rates_));
  auto& live = modules_.add(
      std::make_unique<ws::WsModule>(wsOptions(settings_), volatilityOf(metrics.engine())));
  auto& alerts = modules_.add(std::make_unique<alerts::AlertsModule>(
      settings_.alerts, database_->alerts(), catalog_, latest_,
      [&engine = metrics.engine()] { return engine.snapshot(); },
      [&hub = live.hub()](const std::string& user, const std::string& frame) {
        return hub.sendToUser(user, frame);
      },
      *price_policy_));
  server_ = &modules_.add(
      std::make_unique<ServerModule>(router_, serverOptions(settings_, auth.guard())));
  if (settings_.admin_enabled) {
    admin_ = &modules_.add(std::make_unique<AdminModule>(settings_.admin_host, settings_.admin_port,
                                                         [this] { return readiness(true); }));
  }
  process_metrics_ = telemetry::Registry::global().addCollector(telemetry::collectProcess);
  auto& ingest = modules_.add(
      std::make_unique<ingest::IngestModule>(settings_.ingest, *database_, catalog_, latest_,
                                             scheduledSources(*plugins_), *price_policy_));
  ingest_ = &ingest;

  ingest.setRateBook(rates_);               // non-USD quotes converted at ingest (§12)
  ingest.setHistoryCache(*history_cache_);  // dropped per item by each cycle, before latest
  ingest.addObserver(metrics.engine());     // later observers read this cycle's metrics snapshot
  ingest.addObserver(alerts.service());     // conditions read this cycle's metrics and prices
  // A backfill is evaluated once, by the polling instance, not by every standby.
  alerts.service().setEvaluatesReloads([&ingest] { return ingest.polling(); });
  // Live updates observe last: the volatility frames need the metrics of this cycle.
  ingest.addObserver(live.updates(), CycleStage::kPublish);
  // Every stage's time into skinpulse_cycle_stage_duration_seconds (docs/operations.md).
  ingest.addTimingsObserver(app::cycleStageMetrics());
  live.hub().setTimingsObserver(&app::cycleStageMetrics());
  modules_.registerRoutes(router_);
}

void Runtime::openServices() {
  plugins_ = std::make_unique<PluginSet>(settings_, catalog_);
  database_ = openDatabase(settings_.database_url, settings_.share_dir + "/sql");
  log::main().info("database: {} (schema version {})", database_->backend(),
                   database_->schemaVersion());
  // Timed and counted for skinpulse_shared_store_* (docs/operations.md, "Prometheus metrics").
  shared_store_ = std::make_unique<state::MeasuredSharedStore>(
      state::openSharedStore(settings_.redis_url, *database_));
  log::main().info(
      "shared state: {}{}", shared_store_->backend(),
      shared_store_->ping() ? "" : " (not reachable yet; session endpoints answer 503)");
  seedCatalog(database_->catalog(), settings_.catalog_file);
  catalog_.reset(database_->catalog().allItems());
  // Rate-limited sources poll held items first (docs/api.md §1.2).
  catalog_.setHeldItems(
      [database = database_.get()] { return database->holdings().heldItemIds(); });
  latest_.reset(database_->prices().latestPerItemSource());
}

Runtime::~Runtime() { stop(); }

void Runtime::start() { modules_.start(); }

bool Runtime::stop() { return modules_.stop(); }

Readiness Runtime::readiness(bool detailed) const {
  const bool databaseOk = database_->ping();
  // Reported, not part of readiness: without the store only sessions are down (§5).
  const bool sharedStoreOk = shared_store_->ping();
  JsonWriter json;
  json.beginObject().key("database").beginObject();
  if (detailed) json.key("backend").value(database_->backend());
  json.key("ok").value(databaseOk).endObject();
  if (detailed) json.key("catalog_items").value(static_cast<std::int64_t>(catalog_.size()));
  json.key("shared_store").beginObject();
  if (detailed) json.key("backend").value(shared_store_->backend());
  json.key("ok").value(sharedStoreOk).endObject();
  bool ready = databaseOk;
  if (detailed) {
    plugins_->describe(json);
    ready = modules_.describeReadiness(json) && ready;
  } else {
    // The public view: no paths, versions, sources or error texts (docs/api.md). The
    // modules still decide readiness alike; what they write is the admin listener's.
    JsonWriter hidden;
    hidden.beginObject();
    ready = modules_.describeReadiness(hidden) && ready;
    json.key("ingest").value(ingest_ == nullptr || ingest_->polling() ? "polling" : "standby");
  }
  json.endObject();
  // "status" leads the object: it is known only once every part has been asked.
  std::string body = json.take();
  body.insert(1, std::string("\"status\":\"") + (ready ? "ready" : "unavailable") + "\",");
  return Readiness{ready, std::move(body)};
}

}  // namespace skinpulse
