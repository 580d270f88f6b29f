#pragma once

// ServerModule: the public HTTP server as a module, so it starts listening after the
// modules it serves and stops before them (every route is registered by then). Its keys
// are [http] (app/HttpOptions.hpp).

#include "app/HttpOptions.hpp"
#include "http/ClientAddress.hpp"
#include "http/GuardChain.hpp"
#include "http/HttpServer.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace skinpulse::app {

class ServerModule final : public module::Module {
 public:
  /// Serves the services' router; logs each deprecated key it was given.
  ServerModule(module::Services& services, const HttpOptions& options);

  std::string_view name() const override { return "http"; }
  /// Runs the guards (http::GuardChain, in docs/api.md §2's order: the registry's
  /// http::RequestGuard, the auth module's) before every handler, and keys connections by
  /// the registry's http::TrustedProxies.
  void attach(module::Services& services) override;
  /// Binds and listens; logs the bound address.
  void start() override;
  bool stop() override;

  /// The bound port (0 before start()).
  std::uint16_t port() const { return server_ ? server_->port() : 0; }

 private:
  const http::Router& router_;
  HttpOptions options_;
  std::unique_ptr<http::GuardChain> guards_;
  const http::TrustedProxies* proxies_ = nullptr;
  std::unique_ptr<http::HttpServer> server_;
};

}  // namespace skinpulse::app
