#include "TestHttpServer.hpp"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/SecureServerSocket.h>
#include <Poco/Net/ServerSocket.h>

namespace {

class FunctionHandler : public Poco::Net::HTTPRequestHandler {
 public:
  explicit FunctionHandler(const TestHttpServer::Handler& handler) : handler_(handler) {}
  void handleRequest(Poco::Net::HTTPServerRequest& request,
                     Poco::Net::HTTPServerResponse& response) override {
    handler_(request, response);
  }

 private:
  const TestHttpServer::Handler& handler_;
};

class FunctionFactory : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit FunctionFactory(TestHttpServer::Handler handler) : handler_(std::move(handler)) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest&) override {
    return new FunctionHandler(handler_);
  }

 private:
  TestHttpServer::Handler handler_;
};

}  // namespace

TestHttpServer::TestHttpServer(Handler handler, Poco::Net::Context::Ptr tls)
    : secure_(!tls.isNull()), pool_(2, 16) {
  const Poco::Net::SocketAddress address("127.0.0.1", 0);
  Poco::Net::ServerSocket socket = secure_ ? Poco::Net::SecureServerSocket(address, 64, tls)
                                           : Poco::Net::ServerSocket(address, 64);
  port_ = socket.address().port();
  auto* params = new Poco::Net::HTTPServerParams;
  params->setMaxThreads(16);
  params->setKeepAlive(false);
  server_ = std::make_unique<Poco::Net::HTTPServer>(new FunctionFactory(std::move(handler)), pool_,
                                                    socket, params);
  server_->start();
}

TestHttpServer::~TestHttpServer() {
  server_->stopAll(true);
  server_.reset();
  pool_.joinAll();
}

std::string TestHttpServer::url(const std::string& target, const std::string& host) const {
  return std::string(secure_ ? "https://" : "http://") + host + ":" + std::to_string(port_) +
         target;
}
