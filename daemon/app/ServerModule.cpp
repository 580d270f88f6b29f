#include "app/ServerModule.hpp"

#include "common/Log.hpp"

namespace skinpulse {

void ServerModule::start() {
  server_ = std::make_unique<http::HttpServer>(router_, options_);
  server_->start();
  log::main().info("listening on {}:{}", options_.host, server_->port());
}

bool ServerModule::stop() {
  if (server_) {
    server_->stop();
    server_.reset();
  }
  return true;
}

}  // namespace skinpulse
