#pragma once

// HttpServer: the daemon's HTTP/1.1 front door (docs/adr/0010-front-door.md).
// Boost.Asio event loops (`event_threads`, each an io_context on one thread that owns its
// connections; the acceptor deals accepted sockets round-robin) read and parse requests
// (HeadScanner, Framing, then Boost.Beast's parser), enforce the limits and deadlines of
// docs/api.md §11, and run handlers marked RouteOptions::runs_inline on the loop; every
// other handler runs on a bounded WorkerPool and its response is posted back to the
// connection's loop. A connection costs memory, not a thread: the thread count is
// event_threads + worker_threads whatever the number of clients.

#include "http/ClientAddress.hpp"
#include "http/Dispatcher.hpp"
#include "http/HeadScanner.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace skinpulse::http {

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  ///< 0 picks a free port; see HttpServer::port()
  int event_threads = 0;      ///< 0: one per core
  int worker_threads = 8;
  int worker_queue = 1024;  ///< requests waiting for a worker; more: 503 overloaded
  std::size_t max_connections = 10000;
  /// Per client key (rateLimitKey: IPv4 address, IPv6 /64, the forwarded client behind a
  /// trusted proxy), despite the name.
  std::size_t max_connections_per_ip = 256;
  /// WebSockets per client key, counted at the handshake (Request::connection).
  std::size_t max_websockets_per_client = 16;
  HeadLimits head;                                 ///< 414 / 431
  std::size_t max_body_bytes = 64 * 1024;          ///< 413
  std::chrono::milliseconds head_timeout{10000};   ///< whole head, from its first byte
  std::chrono::milliseconds body_timeout{30000};   ///< whole body, from the end of the head
  std::chrono::milliseconds idle_timeout{60000};   ///< keep-alive wait for the next request
  std::chrono::milliseconds write_timeout{30000};  ///< a response the client does not read
  int max_keep_alive_requests = 10000;
  bool access_log = true;
  /// Count requests in skinpulse_http_requests_total (the public listener; the admin one
  /// would only count its own scrapes).
  bool record_metrics = false;
  /// Middleware run for every routed request (sessions, CSRF, rate limit); may be null.
  const RequestGuard* guard = nullptr;
  /// Who a connection's client is behind a reverse proxy (X-Forwarded-For from a trusted
  /// peer); null: the peer address. Must outlive the server.
  const TrustedProxies* proxies = nullptr;
};

class HttpServer {
 public:
  HttpServer(const Router& router, ServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds and starts the loops and workers. Throws std::runtime_error when the address
  /// is unusable.
  void start();
  /// Closes the listener and every connection, and joins the loops and the workers.
  void stop();
  /// Stops gracefully: closes the listener and the idle connections at once, lets the
  /// requests in progress be answered (each with Connection: close) for at most `grace`,
  /// then stop(). Taken-over (WebSocket) connections are their owner's to close.
  void stop(std::chrono::milliseconds grace);
  /// The bound port (useful with port 0).
  std::uint16_t port() const { return port_; }
  /// Open HTTP connections plus taken-over (WebSocket) ones still holding their slot.
  std::size_t connectionCount() const;

 private:
  struct Impl;
  Dispatcher dispatcher_;
  ServerOptions options_;
  std::unique_ptr<Impl> impl_;
  std::uint16_t port_ = 0;
};

}  // namespace skinpulse::http
