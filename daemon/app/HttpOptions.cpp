#include "app/HttpOptions.hpp"

namespace skinpulse::app {

const common::OptionTable<HttpOptions>& httpOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<HttpOptions> table = {
      {{"http.event_threads", T::kInteger, 0, 256, nullptr, "0",
        "Event-loop threads that own the connections (docs/adr/0010-front-door.md); 0: one "
        "per core. A connection costs memory, not a thread."},
       &HttpOptions::event_threads},
      {{"http.worker_threads", T::kInteger, 1, 1024, nullptr, "8",
        "Threads for the handlers that may block (database, session store, upstream calls)."},
       &HttpOptions::worker_threads},
      {{"http.worker_queue", T::kInteger, 1, 1000000, nullptr, "1024",
        "Requests waiting for a worker thread; when full, 503 overloaded with Retry-After."},
       &HttpOptions::worker_queue},
      {{"http.max_connections", T::kInteger, 1, 1000000, nullptr, "10000",
        "Open connections, WebSocket ones included; more: 503 too_many_connections, then "
        "close."},
       &HttpOptions::max_connections},
      {{"http.max_connections_per_ip", T::kInteger, 1, 1000000, nullptr, "256",
        "Open connections from one client, WebSocket ones included; more: 503 "
        "too_many_connections, then close. A client is an IPv4 address, an IPv6 /64, or "
        "behind a trusted proxy (TRUSTED_PROXIES) the X-Forwarded-For client, charged at "
        "each request head. From 90 % of max_connections on, a newcomer closes the oldest "
        "idle keep-alive connection of the client holding the most instead of being refused."},
       &HttpOptions::max_connections_per_ip},
      {{"http.max_websockets_per_client", T::kInteger, 1, 1000000, nullptr, "16",
        "Open WebSockets (GET /api/v1/ws) of one client (as for max_connections_per_ip), "
        "counted at the handshake; more: 503 too_many_connections. A dashboard uses one "
        "per tab."},
       &HttpOptions::max_websockets_per_client},
      {{"http.max_request_line_bytes", T::kInteger, 256, 1048576, nullptr, "8192",
        "Longest request line; longer: 414."},
       &HttpOptions::max_request_line_bytes},
      {{"http.max_header_bytes", T::kInteger, 1024, 1048576, nullptr, "16384",
        "Largest header section; larger: 431."},
       &HttpOptions::max_header_bytes},
      {{"http.max_body_bytes", T::kInteger, 1024, 16777216, nullptr, "65536",
        "Largest request body; larger: 413 payload_too_large, then close."},
       &HttpOptions::max_body_bytes},
      {{"http.head_timeout_seconds", T::kInteger, 1, 3600, nullptr, "10",
        "The whole request head must arrive within this many seconds of its first byte; "
        "else 408 and close."},
       &HttpOptions::head_timeout_seconds},
      {{"http.body_timeout_seconds", T::kInteger, 1, 3600, nullptr, "30",
        "The whole request body must arrive within this many seconds of the head; else 408 "
        "and close."},
       &HttpOptions::body_timeout_seconds},
      {{"http.keep_alive_timeout_seconds", T::kInteger, 1, 3600, nullptr, "60",
        "Idle keep-alive connections are closed after this many seconds."},
       &HttpOptions::keep_alive_timeout_seconds},
      {{"http.write_timeout_seconds", T::kInteger, 1, 3600, nullptr, "30",
        "A response the client does not read within this many seconds is abandoned (the "
        "connection closes)."},
       &HttpOptions::write_timeout_seconds},
      {{"http.drain_seconds", T::kInteger, 0, 300, nullptr, "5",
        "After SIGTERM, seconds during which GET /readyz answers 503 \"draining\" while "
        "requests are still served, so a load balancer takes the daemon out of rotation "
        "first (docs/operations.md, \"Run a fleet\"); then the listener closes and the "
        "requests in progress are finished. Skipped when no readiness probe came in the "
        "last minute (nobody balances on it); a second SIGTERM ends it. 0: no drain."},
       &HttpOptions::drain_seconds},
      {{"http.threads", T::kInteger, 2, 4096, nullptr, "64",
        "Deprecated and ignored since the event-driven server (docs/adr/0010-front-door.md); "
        "see worker_threads."},
       &HttpOptions::threads},
      {{"http.queue", T::kInteger, 1, 1000000, nullptr, "1024",
        "Deprecated and ignored; see worker_queue."},
       &HttpOptions::queue},
      {{"http.max_keep_alive_requests", T::kInteger, 1, 10000000, nullptr, "10000",
        "Requests served on one connection before it is closed."},
       &HttpOptions::max_keep_alive_requests},
  };
  return table;
}

http::ServerOptions serverOptions(const HttpOptions& s, const http::RequestGuard* guard,
                                  const http::TrustedProxies* proxies) {
  http::ServerOptions options;
  options.host = s.host;
  options.port = s.port;
  options.event_threads = s.event_threads;
  options.worker_threads = s.worker_threads;
  options.worker_queue = s.worker_queue;
  options.max_connections = static_cast<std::size_t>(s.max_connections);
  options.max_connections_per_ip = static_cast<std::size_t>(s.max_connections_per_ip);
  options.max_websockets_per_client = static_cast<std::size_t>(s.max_websockets_per_client);
  options.head.max_line_bytes = static_cast<std::size_t>(s.max_request_line_bytes);
  options.head.max_header_bytes = static_cast<std::size_t>(s.max_header_bytes);
  options.max_body_bytes = static_cast<std::size_t>(s.max_body_bytes);
  options.head_timeout = std::chrono::seconds(s.head_timeout_seconds);
  options.body_timeout = std::chrono::seconds(s.body_timeout_seconds);
  options.idle_timeout = std::chrono::seconds(s.keep_alive_timeout_seconds);
  options.write_timeout = std::chrono::seconds(s.write_timeout_seconds);
  options.max_keep_alive_requests = s.max_keep_alive_requests;
  options.access_log = s.access_log;
  options.record_metrics = true;
  options.guard = guard;
  options.proxies = proxies;
  return options;
}

}  // namespace skinpulse::app
