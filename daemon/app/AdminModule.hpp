#pragma once

// AdminModule: the admin listener ([admin] listen, default 127.0.0.1:9108; ADR 0018): a
// second HTTP server of its own, apart from the public one, that serves
//   GET /metrics  the Prometheus text format 0.0.4 of telemetry::Registry::global()
//   GET /readyz   readiness with every detail (plugin files and versions, sources' last
//                 errors), which the public /readyz leaves out
//   GET /healthz  as on the public listener.
// It has no authentication: it binds loopback unless [admin] allow_remote says otherwise
// (checked with the configuration, readAdminOptions). Its requests are not counted in the
// HTTP metrics (they would count the scrapes).

#include "app/AdminOptions.hpp"
#include "app/HealthApi.hpp"
#include "http/HttpServer.hpp"
#include "http/Router.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"

#include <memory>

namespace skinpulse::app {

class AdminModule final : public module::Module {
 public:
  /// Its /readyz is the registry's ReadinessReport, with every detail.
  AdminModule(module::Services& services, const AdminOptions& options);

  std::string_view name() const override { return "admin"; }
  void start() override;
  bool stop() override;
  std::uint16_t port() const { return server_ ? server_->port() : 0; }

 private:
  http::ServerOptions options_;
  http::Router router_;
  HealthApi health_;
  std::unique_ptr<http::HttpServer> server_;
};

}  // namespace skinpulse::app
