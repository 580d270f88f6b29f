#pragma once

// HttpServer: a Poco TCPServer with an explicitly sized thread pool (a keep-alive
// connection holds a pool thread for its whole life; see design/performance.md) running
// HttpConnection, which feeds every request through the Dispatcher.

#include "http/Dispatcher.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace Poco {
class ThreadPool;
namespace Net {
class TCPServer;
}
}  // namespace Poco

namespace skinpulse::http {

class ConnectionRegistry;

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  ///< 0 picks a free port; see HttpServer::port()
  int threads = 64;
  int queue = 1024;
  int keep_alive_timeout_seconds = 5;
  int max_keep_alive_requests = 10000;
  std::size_t max_body_bytes = 64 * 1024;
  bool access_log = true;
  /// Middleware run for every routed request (sessions, CSRF, rate limit); may be null.
  const RequestGuard* guard = nullptr;
};

class HttpServer {
 public:
  HttpServer(const Router& router, ServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds and starts accepting. Throws Poco::Exception when the address is unusable.
  void start();
  /// Stops accepting, aborts idle keep-alive connections and waits for the pool.
  void stop();
  /// The bound port (useful with port 0).
  std::uint16_t port() const { return port_; }

 private:
  Dispatcher dispatcher_;
  ServerOptions options_;
  std::unique_ptr<Poco::ThreadPool> pool_;
  std::unique_ptr<ConnectionRegistry> registry_;
  std::unique_ptr<Poco::Net::TCPServer> server_;
  std::uint16_t port_ = 0;
};

}  // namespace skinpulse::http
