#pragma once

// A TCP server on 127.0.0.1 and a kernel-chosen port that lets a test speak broken or slow
// HTTP byte by byte, which Poco's HTTPServer would never do.

#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/StreamSocket.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

class RawTcpServer {
 public:
  /// Called for each accepted connection, one at a time; exceptions are swallowed.
  using Session = std::function<void(Poco::Net::StreamSocket&, const std::atomic<bool>& stop)>;

  explicit RawTcpServer(Session session);
  ~RawTcpServer();
  RawTcpServer(const RawTcpServer&) = delete;
  RawTcpServer& operator=(const RawTcpServer&) = delete;

  std::uint16_t port() const { return port_; }
  std::string url(const std::string& target) const;

  /// Reads the request up to the blank line after its headers.
  static std::string readRequestHead(Poco::Net::StreamSocket& socket);

 private:
  void serve();

  Session session_;
  Poco::Net::ServerSocket socket_;
  std::uint16_t port_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};
