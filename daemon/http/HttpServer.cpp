#include "http/HttpServer.hpp"

#include "http/HttpConnection.hpp"

#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/TCPServer.h>
#include <Poco/ThreadPool.h>

namespace skinpulse::http {

HttpServer::HttpServer(const Router& router, ServerOptions options)
    : dispatcher_(router, options.guard), options_(std::move(options)) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::start() {
  Poco::Net::ServerSocket socket;
  socket.bind(Poco::Net::SocketAddress(options_.host, options_.port), true);
  socket.listen(1024);
  port_ = socket.address().port();

  // Reference-counted: the factory and the server each keep a reference.
  Poco::Net::HTTPServerParams::Ptr params = new Poco::Net::HTTPServerParams;
  params->setMaxThreads(options_.threads);
  params->setMaxQueued(options_.queue);
  params->setKeepAlive(true);
  params->setKeepAliveTimeout(Poco::Timespan(options_.keep_alive_timeout_seconds, 0));
  params->setMaxKeepAliveRequests(options_.max_keep_alive_requests);
  params->setTimeout(Poco::Timespan(30, 0));
  // 256 KiB stacks are plenty for our handlers and keep a large pool cheap.
  pool_ = std::make_unique<Poco::ThreadPool>(2, options_.threads, 60, 256 * 1024);
  registry_ = std::make_unique<ConnectionRegistry>();
  server_ = std::make_unique<Poco::Net::TCPServer>(
      new HttpConnectionFactory(dispatcher_, options_, params, *registry_), *pool_, socket, params);
  server_->start();
}

void HttpServer::stop() {
  if (server_) {
    server_->stop();  // no new connections
    registry_->shutdownAll();
    server_.reset();
  }
  if (pool_) {
    pool_->joinAll();
    pool_.reset();
  }
}

}  // namespace skinpulse::http
