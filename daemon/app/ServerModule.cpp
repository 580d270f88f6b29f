#include "app/ServerModule.hpp"

#include "access/QuotaGuard.hpp"
#include "common/Log.hpp"

namespace skinpulse::app {
namespace {

constexpr std::chrono::milliseconds kInFlightGrace{3000};

}  // namespace

ServerModule::ServerModule(module::Services& services, const HttpOptions& options)
    : router_(services.router), options_(options) {
  for (const auto& key : options_.deprecated_keys) {
    log::main().warn(
        "{} is deprecated and ignored: the HTTP server runs event loops and "
        "[http] worker_threads (docs/adr/0010-front-door.md)",
        key);
  }
}

void ServerModule::attach(module::Services& services) {
  // The read budget first (docs/api.md §2: budgets before the session): a refused read
  // costs no session lookup. A table without the api module leaves a null, skipped.
  guards_ = std::make_unique<http::GuardChain>(
      std::vector<const http::RequestGuard*>{services.registry.find<access::QuotaGuard>(),
                                             &services.registry.require<http::RequestGuard>()});
  proxies_ = services.registry.find<http::TrustedProxies>();
}

void ServerModule::start() {
  server_ =
      std::make_unique<http::HttpServer>(router_, serverOptions(options_, guards_.get(), proxies_));
  server_->start();
  log::main().info("listening on {}:{}", options_.host, server_->port());
}

bool ServerModule::stop() {
  if (server_) {
    // The requests in progress are answered (Connection: close); a handler stuck longer
    // than this is cut off, so the stop stays bounded.
    server_->stop(kInFlightGrace);
    server_.reset();
  }
  return true;
}

}  // namespace skinpulse::app
