#pragma once

// HttpConnection: one keep-alive HTTP/1.1 connection, served by one pool thread.
//
// Poco's HTTPServerConnection waits for each next request with Socket::poll(), which in
// Poco 1.11 creates, arms and closes an epoll instance per request; on our 2-core boxes
// that was a visible share of the kernel time of the hot endpoints (bench/README.md).
// This loop blocks in recv() with the keep-alive timeout as SO_RCVTIMEO instead, and is
// otherwise Poco's: the same request parser, response writer and 100-continue handling.
// Connections register in a ConnectionRegistry so stop() can shut their sockets down
// and wake threads blocked in recv() at once.

#include "http/Dispatcher.hpp"

#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/StreamSocket.h>
#include <Poco/Net/TCPServerConnection.h>
#include <Poco/Net/TCPServerConnectionFactory.h>

#include <mutex>
#include <set>

namespace skinpulse::http {

struct ServerOptions;

/// The sockets of live connections, for a prompt shutdown.
class ConnectionRegistry {
 public:
  /// False once stopping: the caller must not serve the connection.
  bool add(const Poco::Net::StreamSocket& socket);
  void remove(const Poco::Net::StreamSocket& socket);
  /// Refuses new connections and shuts down every registered socket.
  void shutdownAll();

 private:
  std::mutex mutex_;
  std::set<poco_socket_t> sockets_;
  bool stopping_ = false;
};

class HttpConnection final : public Poco::Net::TCPServerConnection {
 public:
  HttpConnection(const Poco::Net::StreamSocket& socket, const Dispatcher& dispatcher,
                 const ServerOptions& options, Poco::Net::HTTPServerParams::Ptr params,
                 ConnectionRegistry& registry);

  void run() override;

 private:
  void serve();

  const Dispatcher& dispatcher_;
  const ServerOptions& options_;
  Poco::Net::HTTPServerParams::Ptr params_;
  ConnectionRegistry& registry_;
};

class HttpConnectionFactory final : public Poco::Net::TCPServerConnectionFactory {
 public:
  HttpConnectionFactory(const Dispatcher& dispatcher, const ServerOptions& options,
                        Poco::Net::HTTPServerParams::Ptr params, ConnectionRegistry& registry)
      : dispatcher_(dispatcher), options_(options), params_(params), registry_(registry) {}

  Poco::Net::TCPServerConnection* createConnection(const Poco::Net::StreamSocket& socket) override {
    return new HttpConnection(socket, dispatcher_, options_, params_, registry_);
  }

 private:
  const Dispatcher& dispatcher_;
  const ServerOptions& options_;
  Poco::Net::HTTPServerParams::Ptr params_;
  ConnectionRegistry& registry_;
};

}  // namespace skinpulse::http
