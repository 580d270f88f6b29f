#include "app/AdminModule.hpp"

#include "common/Log.hpp"
#include "telemetry/Registry.hpp"

namespace skinpulse::app {
namespace {

// One scraper and an admin's curl: a loop and a worker are plenty, and a few connections.
http::ServerOptions adminServerOptions(const std::string& host, std::uint16_t port) {
  http::ServerOptions options;
  options.host = host;
  options.port = port;
  options.event_threads = 1;
  options.worker_threads = 1;
  options.worker_queue = 16;
  options.max_connections = 32;
  options.max_connections_per_ip = 16;
  options.access_log = false;
  options.record_metrics = false;
  return options;
}

}  // namespace

AdminModule::AdminModule(module::Services& services, const AdminOptions& options)
    : options_(adminServerOptions(options.host, options.port)),
      health_([&report = services.registry.require<ReadinessReport>()] { return report(true); }) {
  health_.registerRoutes(router_);
  // On a worker: the collectors read /proc and take locks.
  router_.add("GET", "/metrics", [](http::Request&, http::Response& response) {
    response.status = 200;
    response.content_type = "text/plain; version=0.0.4; charset=utf-8";
    response.body = telemetry::Registry::global().render();
  });
}

void AdminModule::start() {
  server_ = std::make_unique<http::HttpServer>(router_, options_);
  server_->start();
  log::main().info("admin listener on {}:{} (GET /metrics, GET /readyz)", options_.host,
                   server_->port());
}

bool AdminModule::stop() {
  if (server_) {
    server_->stop();
    server_.reset();
  }
  return true;
}

}  // namespace skinpulse::app
