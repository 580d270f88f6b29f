#pragma once

// HttpOptions: the public HTTP server's options — [http] (docs/api.md §11,
// docs/adr/0010-front-door.md), bound in httpOptionTable(), with the address of [daemon]
// listen and [log] access. The server module (app/ServerModule.hpp) runs on them.

#include "common/OptionTable.hpp"
#include "http/HttpServer.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::app {

struct HttpOptions {
  std::string host = "127.0.0.1";  ///< [daemon] listen
  std::uint16_t port = 8080;       ///< [daemon] listen; 0 picks a free port
  bool access_log = true;          ///< [log] access
  int event_threads = 0;
  int worker_threads = 8;
  int worker_queue = 1024;
  int max_connections = 10000;
  int max_connections_per_ip = 256;
  int max_websockets_per_client = 16;
  int max_request_line_bytes = 8192;
  int max_header_bytes = 16384;
  int max_body_bytes = 65536;
  int head_timeout_seconds = 10;
  int body_timeout_seconds = 30;
  int keep_alive_timeout_seconds = 60;
  int write_timeout_seconds = 30;
  int max_keep_alive_requests = 10000;
  /// After SIGTERM, how long /readyz answers 503 "draining" while requests are still
  /// served, before the listener closes (app/DrainState.hpp); 0: no drain.
  int drain_seconds = 5;
  // Deprecated and ignored; kept bound so a value is still checked (a typo in an old
  // file fails as before) and reported by the start-up warning.
  int threads = 64;
  int queue = 1024;
  /// Deprecated keys the configuration sets ("[http] threads"): logged at start.
  std::vector<std::string> deprecated_keys;
};

/// [http], but trusted_proxies (auth/AuthOptions.cpp).
const common::OptionTable<HttpOptions>& httpOptionTable();

/// The server's options: `options` with the request guard (sessions, CSRF, rate limit) and
/// the trusted proxies that say which client a connection is (either may be null).
http::ServerOptions serverOptions(const HttpOptions& options, const http::RequestGuard* guard,
                                  const http::TrustedProxies* proxies);

}  // namespace skinpulse::app
