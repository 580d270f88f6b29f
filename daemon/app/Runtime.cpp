#include "app/Runtime.hpp"

#include "catalog/CatalogSeeder.hpp"
#include "common/Log.hpp"
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

  items_api_ = std::make_unique<http::ItemsApi>(
      catalog_, latest_, database_->prices(),
      http::ItemsApiConfig{settings_.base_url, settings_.reference_sources,
                           settings_.enabledSourceNames()});
  items_api_->registerRoutes(router_);
  health_api_ = std::make_unique<http::HealthApi>([this] { return readiness(); });
  health_api_->registerRoutes(router_);
}

Runtime::~Runtime() { stop(); }

void Runtime::start() {
  http::ServerOptions options;
  options.host = settings_.listen_host;
  options.port = settings_.listen_port;
  options.threads = settings_.http_threads;
  options.queue = settings_.http_queue;
  options.keep_alive_timeout_seconds = settings_.keep_alive_timeout_seconds;
  options.max_keep_alive_requests = settings_.max_keep_alive_requests;
  options.access_log = settings_.access_log;
  server_ = std::make_unique<http::HttpServer>(router_, options);
  server_->start();
  log::main().info("listening on {}:{}", settings_.listen_host, server_->port());
}

void Runtime::stop() {
  if (server_) {
    server_->stop();
    server_.reset();
  }
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
  json.endObject();
  return http::Readiness{databaseOk, json.take()};
}

}  // namespace skinpulse
