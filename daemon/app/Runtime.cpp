#include "app/Runtime.hpp"

#include "catalog/CatalogSeeder.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"
#include "http/Json.hpp"
#include "state/SharedStoreFactory.hpp"

namespace skinpulse {

Runtime::Runtime(const LoadedConfig& config) : settings_(config.settings) {
  log::main().info(
      "configuration: {}{}", config.main_file.empty() ? "built-in defaults" : config.main_file,
      config.drop_ins.empty() ? ""
                              : " + " + std::to_string(config.drop_ins.size()) + " drop-in(s)");
  plugins_ = std::make_unique<PluginSet>(settings_, catalog_);

  database_ = openDatabase(settings_.database_url, settings_.share_dir + "/sql");
  log::main().info("database: {} (schema version {})", database_->backend(),
                   database_->schemaVersion());
  startAuth();
  seedCatalog(database_->catalog(), settings_.catalog_file);
  catalog_.reset(database_->catalog().allItems());
  // Rate-limited sources poll held items first (decisions.md §1.2).
  catalog_.setHeldItems(
      [database = database_.get()] { return database->holdings().heldItemIds(); });
  latest_.reset(database_->prices().latestPerItemSource());
  metrics_ = std::make_unique<metrics::MetricsEngine>(
      catalog_, latest_, plugins_->metricSet(),
      metrics::MetricsEngineConfig{settings_.reference_sources, settings_.enabledSourceNames()});
  metrics_->rebuild(database_->prices(), time::nowSeconds());

  items_api_ = std::make_unique<http::ItemsApi>(
      catalog_, latest_, database_->prices(),
      http::ItemsApiConfig{settings_.base_url, settings_.reference_sources,
                           settings_.enabledSourceNames()});
  items_api_->registerRoutes(router_);
  portfolio_ = std::make_unique<portfolio::PortfolioModule>(
      settings_, *database_, *shared_store_, catalog_, latest_, plugins_->httpClient());
  portfolio_->registerRoutes(router_);
  health_api_ = std::make_unique<http::HealthApi>([this] { return readiness(); });
  health_api_->registerRoutes(router_);
  metrics_api_ = std::make_unique<http::MetricsApi>(catalog_, *metrics_);
  metrics_api_->registerRoutes(router_);
  candles_api_ = std::make_unique<metrics::CandlesApi>(
      catalog_, latest_, database_->prices(),
      metrics::CandlesApiConfig{settings_.reference_sources, settings_.enabledSourceNames()});
  candles_api_->registerRoutes(router_);
  web::WebOptions web{settings_.dashboard_enabled,
                      settings_.share_dir + "/www",
                      settings_.base_url.rfind("https://", 0) == 0,
                      {}};
  for (const auto& instance : plugins_->identityProviders()) {
    web.providers.push_back(instance.instanceName());
  }
  web_ = std::make_unique<web::WebModule>(std::move(web));
  web_->registerRoutes(router_);

  events_ = events::makeEventBus(settings_.redis_url);
  live_hub_ = std::make_unique<ws::LiveHub>();
  events_->subscribe(
      [hub = live_hub_.get()](const events::UpdateBatchPtr& batch) { hub->publish(batch); });
  ws_api_ = std::make_unique<ws::WsApi>(*live_hub_);
  ws_api_->registerRoutes(router_);
}

Runtime::~Runtime() { stop(); }

void Runtime::startAuth() {
  shared_store_ = state::openSharedStore(settings_.redis_url, *database_);
  log::main().info(
      "shared state: {}{}", shared_store_->backend(),
      shared_store_->ping() ? "" : " (not reachable yet; session endpoints answer 503)");
  sessions_ = std::make_unique<auth::SessionManager>(
      *shared_store_,
      auth::SessionSettings{settings_.session_secret, settings_.session_lifetime_hours,
                            settings_.cookie_secure});
  auth_rate_limiter_ = std::make_unique<auth::RateLimiter>(*shared_store_, "auth",
                                                           settings_.auth_rate_limit_per_minute);
  trusted_proxies_ = std::make_unique<auth::TrustedProxies>(settings_.trusted_proxies);
  auth_guard_ =
      std::make_unique<auth::AuthGuard>(*sessions_, *auth_rate_limiter_, *trusted_proxies_);
  std::vector<auth::ProviderEntry> providers;
  for (const auto& instance : plugins_->identityProviders()) {
    providers.push_back(auth::ProviderEntry{instance.instanceName(), instance.get()});
  }
  auth_api_ = std::make_unique<auth::AuthApi>(
      *sessions_, *shared_store_, database_->users(), std::move(providers),
      auth::AuthApiConfig{settings_.base_url, settings_.frontend_url});
  auth_api_->registerRoutes(router_);
}

namespace {

constexpr std::chrono::seconds kRefreshPeriod{5};

void writeSourceStatus(http::JsonWriter& json, const SourceStatus& status) {
  auto optionalTime = [&](const char* key, const std::optional<std::int64_t>& value) {
    json.key(key);
    if (value) {
      json.value(time::formatIso8601(*value));
    } else {
      json.null();
    }
  };
  json.beginObject()
      .key("name")
      .value(status.name)
      .key("plugin")
      .value(status.plugin)
      .key("interval_seconds")
      .value(status.interval_seconds);
  optionalTime("last_poll", status.last_poll);
  optionalTime("last_success", status.last_success);
  json.key("last_error")
      .value(status.last_error)
      .key("consecutive_failures")
      .value(status.consecutive_failures)
      .key("next_poll")
      .value(time::formatIso8601(status.next_poll))
      .key("points_received")
      .value(static_cast<std::int64_t>(status.points_received))
      .key("points_accepted")
      .value(static_cast<std::int64_t>(status.points_accepted))
      .key("points_rejected")
      .beginObject();
  for (const auto& [reason, count] : status.rejected) {
    json.key(reason).value(static_cast<std::int64_t>(count));
  }
  json.endObject().endObject();
}

}  // namespace

void Runtime::start() {
  http::ServerOptions options;
  options.host = settings_.listen_host;
  options.port = settings_.listen_port;
  options.threads = settings_.http_threads;
  options.queue = settings_.http_queue;
  options.keep_alive_timeout_seconds = settings_.keep_alive_timeout_seconds;
  options.max_keep_alive_requests = settings_.max_keep_alive_requests;
  options.access_log = settings_.access_log;
  options.guard = auth_guard_.get();
  live_hub_->start();
  events_->start();
  log::main().info("live updates: {} event bus", events_->name());
  server_ = std::make_unique<http::HttpServer>(router_, options);
  server_->start();
  log::main().info("listening on {}:{}", settings_.listen_host, server_->port());

  ingest_ =
      std::make_unique<IngestCycle>(*database_, catalog_, latest_, settings_.catalog_auto_add);
  ingest_->addObserver(*metrics_);  // first: later observers read this cycle's snapshot
  metrics_->startRefresh(std::chrono::seconds(60));
  // Live updates observe last: the volatility frames need the metrics of this cycle.
  live_updates_ = std::make_unique<ws::LiveUpdates>(
      *events_, [engine = metrics_.get()](std::int64_t item_id) -> std::optional<std::string> {
        const auto object = engine->snapshot()->volatility(item_id, "24h");
        if (object.empty()) return std::nullopt;
        return std::string(object);
      });
  ingest_->addObserver(*live_updates_);
  std::vector<Scheduler::Source> sources;
  for (std::size_t i = 0; i < plugins_->sources().size(); ++i) {
    const auto& config = plugins_->sourceSettings()[i];
    sources.push_back(Scheduler::Source{config.name, config.plugin, plugins_->sources()[i].get(),
                                        config.interval_seconds, config.timeout_seconds});
  }
  scheduler_ = std::make_unique<Scheduler>(
      std::move(sources),
      [this](const std::vector<SourceBatch>& batches) { return ingest_->run(batches); },
      [this] { return database_->ingestLease().holds(); });
  scheduler_->start();
  Retention::Options retention;
  retention.retention_days = settings_.retention_days;
  retention_ = std::make_unique<Retention>(database_->prices(), retention);
  retention_->start();
  // skinpulsectl backfill, and on a standby instance the polling one, write to the same
  // database while we run; a cheap look every few seconds brings those points into the
  // caches.
  refresh_ = std::make_unique<PeriodicTask>(
      "price refresh", kRefreshPeriod, kRefreshPeriod,
      [this] { ingest_->reloadIfChangedElsewhere(!scheduler_->polling()); });
  refresh_->start();
}

bool Runtime::stop() {
  bool clean = true;
  if (refresh_) refresh_->stop();
  if (retention_) retention_->stop();
  if (scheduler_) {
    // The contract gives shutdown 5 s; fetches get most of it to finish.
    clean = scheduler_->stop(std::chrono::milliseconds(3500));
    if (!clean) log::main().warn("a source fetch is still running; exiting without waiting");
  }
  if (server_) {
    server_->stop();
    server_.reset();
  }
  if (live_hub_) live_hub_->stop();
  if (events_) events_->stop();
  if (clean) scheduler_.reset();
  if (metrics_) metrics_->stopRefresh();
  return clean;
}

http::Readiness Runtime::readiness() const {
  const bool databaseOk = database_->ping();
  http::JsonWriter json;
  json.beginObject()
      .key("status")
      .value(databaseOk ? "ready" : "unavailable")
      .key("database")
      .beginObject()
      .key("backend")
      .value(database_->backend())
      .key("ok")
      .value(databaseOk)
      .endObject()
      .key("catalog_items")
      .value(static_cast<std::int64_t>(catalog_.size()));
  // Reported, not part of readiness: without the store only sessions are down (§5).
  json.key("shared_store")
      .beginObject()
      .key("backend")
      .value(shared_store_->backend())
      .key("ok")
      .value(shared_store_->ping())
      .endObject();
  plugins_->describe(json);
  // "polling": this instance holds the ingest lease; "standby": another one does (§8).
  json.key("ingest").value(!scheduler_ || scheduler_->polling() ? "polling" : "standby");
  json.key("sources").beginArray();
  if (scheduler_) {
    for (const auto& status : scheduler_->status()) writeSourceStatus(json, status);
  }
  json.endArray();
  json.endObject();
  return http::Readiness{databaseOk, json.take()};
}

}  // namespace skinpulse
