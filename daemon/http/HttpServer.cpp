#include "http/HttpServer.hpp"

#include "common/Log.hpp"
#include "http/HttpError.hpp"
#include "http/Problem.hpp"
#include "http/QueryString.hpp"
#include "http/ResponseWriter.hpp"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/ThreadPool.h>
#include <Poco/URI.h>

#include <chrono>

namespace skinpulse::http {
namespace {

// Reads at most `limit` + 1 bytes so an oversized chunked body is detected without
// buffering it.
bool readBody(std::istream& in, std::size_t limit, std::string& body) {
  char buffer[8192];
  while (in) {
    in.read(buffer, sizeof buffer);
    body.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (body.size() > limit) return false;
  }
  return true;
}

class RequestHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  RequestHandler(const Dispatcher& dispatcher, const ServerOptions& options)
      : dispatcher_(dispatcher), options_(options) {}

  void handleRequest(Poco::Net::HTTPServerRequest& in,
                     Poco::Net::HTTPServerResponse& out) override {
    const auto started = std::chrono::steady_clock::now();
    Request request;
    Response response;
    request.method = in.getMethod();
    request.client_address = in.clientAddress().host().toString();
    fill(in, request, response);
    if (response.body.empty()) dispatcher_.dispatch(request, response);
    if (response.status == 413) out.setKeepAlive(false);  // the rest of the body is unread
    writeResponse(in, out, response, request.method == "HEAD");
    if (options_.access_log) {
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
      log::access().info("{} {} {} {:.3f}ms {}", request.method, request.path, response.status, ms,
                         request.client_address);
    }
  }

 private:
  // Parses the request into `request`; on a refusal that comes before routing (body too
  // large, malformed target) it renders the problem into `response` instead.
  void fill(Poco::Net::HTTPServerRequest& in, Request& request, Response& response) {
    try {
      const std::string& target = in.getURI();
      const auto question = target.find('?');
      const auto path = percentDecode(std::string_view(target).substr(0, question), false);
      if (!path) throw HttpError(400, "invalid_parameter", "malformed percent-encoding in path");
      request.path = *path;
      if (question != std::string::npos) request.query = target.substr(question + 1);
      if (in.hasContentLength() && in.getContentLength64() > 0 &&
          static_cast<std::uint64_t>(in.getContentLength64()) > options_.max_body_bytes) {
        throw HttpError(413, "payload_too_large", "request body over 64 KiB");
      }
      // A request with neither Content-Length nor chunked coding has no body (RFC 9112);
      // reading one would wait for the peer to close.
      const bool hasBody = in.getChunkedTransferEncoding() || in.hasContentLength();
      if (hasBody && !readBody(in.stream(), options_.max_body_bytes, request.body)) {
        throw HttpError(413, "payload_too_large", "request body over 64 KiB");
      }
      auto params = parseQuery(request.query);
      if (!params) throw HttpError(400, "invalid_parameter", "malformed percent-encoding in query");
      request.query_params = std::move(*params);
      for (const auto& [name, value] : in) request.headers.emplace_back(name, value);
    } catch (const HttpError& error) {
      renderProblem(error, response);
      applySecurityHeaders(request.path, response);
    }
  }

  const Dispatcher& dispatcher_;
  const ServerOptions& options_;
};

class HandlerFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  HandlerFactory(const Dispatcher& dispatcher, const ServerOptions& options)
      : dispatcher_(dispatcher), options_(options) {}

  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest&) override {
    return new RequestHandler(dispatcher_, options_);
  }

 private:
  const Dispatcher& dispatcher_;
  const ServerOptions& options_;
};

}  // namespace

HttpServer::HttpServer(const Router& router, ServerOptions options)
    : dispatcher_(router), options_(std::move(options)) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::start() {
  Poco::Net::ServerSocket socket;
  socket.bind(Poco::Net::SocketAddress(options_.host, options_.port), true);
  socket.listen(1024);
  port_ = socket.address().port();

  auto params = new Poco::Net::HTTPServerParams;
  params->setMaxThreads(options_.threads);
  params->setMaxQueued(options_.queue);
  params->setKeepAlive(true);
  params->setKeepAliveTimeout(Poco::Timespan(options_.keep_alive_timeout_seconds, 0));
  params->setMaxKeepAliveRequests(options_.max_keep_alive_requests);
  params->setTimeout(Poco::Timespan(30, 0));
  // 256 KiB stacks are plenty for our handlers and keep a large pool cheap.
  pool_ = std::make_unique<Poco::ThreadPool>(2, options_.threads, 60, 256 * 1024);
  server_ = std::make_unique<Poco::Net::HTTPServer>(new HandlerFactory(dispatcher_, options_),
                                                    *pool_, socket, params);
  server_->start();
}

void HttpServer::stop() {
  if (server_) {
    server_->stopAll(true);
    server_.reset();
  }
  if (pool_) {
    pool_->joinAll();
    pool_.reset();
  }
}

}  // namespace skinpulse::http
