#include "http/Exchange.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "common/Log.hpp"
#include "http/HttpError.hpp"
#include "http/HttpServer.hpp"
#include "http/Problem.hpp"
#include "http/ResponseWriter.hpp"

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

// Parses the request into `request`; on a refusal that comes before routing (body too
// large, malformed target) it renders the problem into `response` instead.
void fill(const ServerOptions& options, Poco::Net::HTTPServerRequest& in, Request& request,
          Response& response) {
  try {
    const std::string& target = in.getURI();
    request.target = target;
    const auto question = target.find('?');
    const auto path = sdk::percentDecode(std::string_view(target).substr(0, question), false);
    if (!path) throw HttpError(400, "invalid_parameter", "malformed percent-encoding in path");
    request.path = *path;
    if (question != std::string::npos) request.query = target.substr(question + 1);
    if (in.hasContentLength() && in.getContentLength64() > 0 &&
        static_cast<std::uint64_t>(in.getContentLength64()) > options.max_body_bytes) {
      throw HttpError(413, "payload_too_large", "request body over 64 KiB");
    }
    // A request with neither Content-Length nor chunked coding has no body (RFC 9112);
    // reading one would wait for the peer to close.
    const bool hasBody = in.getChunkedTransferEncoding() || in.hasContentLength();
    if (hasBody && !readBody(in.stream(), options.max_body_bytes, request.body)) {
      throw HttpError(413, "payload_too_large", "request body over 64 KiB");
    }
    auto params = sdk::parseQuery(request.query);
    if (!params) throw HttpError(400, "invalid_parameter", "malformed percent-encoding in query");
    request.query_params = std::move(*params);
    for (const auto& [name, value] : in) request.headers.emplace_back(name, value);
  } catch (const HttpError& error) {
    renderProblem(error, response);
    applySecurityHeaders(request.path, response);
  }
}

}  // namespace

std::function<void(int, std::string)> serveExchange(const Dispatcher& dispatcher,
                                                    const ServerOptions& options,
                                                    Poco::Net::HTTPServerRequest& in,
                                                    Poco::Net::HTTPServerResponse& out) {
  const auto started = std::chrono::steady_clock::now();
  Request request;
  Response response;
  request.method = in.getMethod();
  request.client_address = in.clientAddress().host().toString();
  fill(options, in, request, response);
  if (response.body.empty()) dispatcher.dispatch(request, response);
  if (response.status == 413) out.setKeepAlive(false);  // the rest of the body is unread
  writeResponse(&in, out, response, request.method == "HEAD");
  if (options.access_log) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    log::access().info("{} {} {} {:.3f}ms {}", request.method, request.path, response.status, ms,
                       request.client_address);
  }
  if (response.status == 101 && request.method == "GET") return std::move(response.take_over);
  return {};
}

}  // namespace skinpulse::http
