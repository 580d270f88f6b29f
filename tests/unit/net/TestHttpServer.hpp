#pragma once

// A Poco HTTPServer on 127.0.0.1 and a port the kernel picks, answering every request
// with one handler function. With a TLS context it serves https.

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/ThreadPool.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

class TestHttpServer {
 public:
  using Handler =
      std::function<void(Poco::Net::HTTPServerRequest&, Poco::Net::HTTPServerResponse&)>;

  explicit TestHttpServer(Handler handler, Poco::Net::Context::Ptr tls = nullptr);
  ~TestHttpServer();
  TestHttpServer(const TestHttpServer&) = delete;
  TestHttpServer& operator=(const TestHttpServer&) = delete;

  std::uint16_t port() const { return port_; }
  /// "http://127.0.0.1:<port><target>" (https and `host` when asked).
  std::string url(const std::string& target, const std::string& host = "127.0.0.1") const;

 private:
  bool secure_;
  std::uint16_t port_ = 0;
  Poco::ThreadPool pool_;  // own pool: a slow handler never starves another suite
  std::unique_ptr<Poco::Net::HTTPServer> server_;
};
