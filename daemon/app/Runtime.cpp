#include "app/Runtime.hpp"

#include "catalog/CatalogSeeder.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"
#include "http/Json.hpp"

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
  seedCatalog(database_->catalog(), settings_.catalog_file);
  catalog_.reset(database_->catalog().allItems());
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
  health_api_ = std::make_unique<http::HealthApi>([this] { return readiness(); });
  health_api_->registerRoutes(router_);
  metrics_api_ = std::make_unique<http::MetricsApi>(catalog_, *metrics_);
  metrics_api_->registerRoutes(router_);

  events_ = events::makeEventBus(settings_.redis_url);
  live_hub_ = std::make_unique<ws::LiveHub>();
  events_->subscribe(
      [hub = live_hub_.get()](const events::UpdateBatchPtr& batch) { hub->publish(batch); });
  ws_api_ = std::make_unique<ws::WsApi>(*live_hub_);
  ws_api_->registerRoutes(router_);
}

Runtime::~Runtime() { stop(); }

namespace {

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
      [this](const std::vector<SourceBatch>& batches) { return ingest_->run(batches); });
  scheduler_->start();
  Retention::Options retention;
  retention.retention_days = settings_.retention_days;
  retention_ = std::make_unique<Retention>(database_->prices(), retention);
  retention_->start();
}

bool Runtime::stop() {
  bool clean = true;
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
  plugins_->describe(json);
  json.key("sources").beginArray();
  if (scheduler_) {
    for (const auto& status : scheduler_->status()) writeSourceStatus(json, status);
  }
  json.endArray();
  json.endObject();
  return http::Readiness{databaseOk, json.take()};
}

}  // namespace skinpulse
