#pragma once

// ServerModule: the HTTP server as a module, so it starts listening after the modules
// it serves and stops before them (every route is registered by then).

#include "http/HttpServer.hpp"
#include "module/Module.hpp"

#include <memory>

namespace skinpulse {

class ServerModule final : public module::Module {
 public:
  /// `router` must outlive the module.
  ServerModule(const http::Router& router, http::ServerOptions options)
      : router_(router), options_(std::move(options)) {}

  std::string_view name() const override { return "http"; }
  /// Binds and listens; logs the bound address.
  void start() override;
  bool stop() override;

  /// The bound port (0 before start()).
  std::uint16_t port() const { return server_ ? server_->port() : 0; }

 private:
  const http::Router& router_;
  http::ServerOptions options_;
  std::unique_ptr<http::HttpServer> server_;
};

}  // namespace skinpulse
