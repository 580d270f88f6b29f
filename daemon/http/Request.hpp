#pragma once

// Request and Response: what handlers see. The server (HttpConnection) fills them from
// the parsed request, so handlers and the router are tested without sockets.

#include "http/ConnectionLimiter.hpp"
#include "http/SessionContext.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skinpulse::http {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct Request {
  std::string method;
  std::string path;   ///< percent-decoded path, no query string
  std::string query;  ///< raw query string, without '?'
  std::vector<std::pair<std::string, std::string>> query_params;  ///< decoded, in order
  std::map<std::string, std::string> path_params;                 ///< from the route pattern
  Headers headers;
  std::string body;
  std::string client_address;  ///< peer IP (proxy handling is the auth layer's job)
  /// The request-target exactly as received (path and query, still percent-encoded):
  /// what an OpenID 2.0 callback compares with its return_to.
  std::string target;
  /// The caller's session, filled by the RequestGuard before the handler runs.
  SessionContext session;
  /// The connection's place under the caps: a WebSocket handshake claims its client's
  /// WebSocket share with it (ws/WsApi.cpp). Empty outside the server.
  ConnectionHandle connection;
  /// The handler runs on an event loop (RouteOptions::runs_inline) and may hand the
  /// request to the worker pool instead (Response::run_on_worker) when it cannot answer
  /// from memory. False on a worker and outside the server: the handler answers itself.
  bool may_defer = false;

  /// Case-insensitive header lookup.
  std::optional<std::string> header(std::string_view name) const;
  /// The single value of a query parameter; throws HttpError 400 invalid_parameter when
  /// it is given more than once.
  std::optional<std::string> queryParam(const std::string& name) const;
};

struct Response {
  int status = 200;
  std::string content_type = "application/json; charset=utf-8";
  Headers headers;
  std::string body;
  /// A body shared with a cache, sent instead of `body` when set (no copy per request).
  std::shared_ptr<const std::string> shared_body;
  /// A sealed file holding exactly `shared_body`'s bytes (http::PreparedBody), kept open
  /// as long as `shared_body` lives: the connection sends it with sendfile. -1: none.
  int shared_body_fd = -1;
  /// Set by an inline handler of a request with `may_defer` that needs the store: the
  /// connection runs the handler again on the worker pool (the guard is not run twice).
  bool run_on_worker = false;
  /// Protocol switch (status 101): after the response is written, the connection leaves
  /// the HTTP server and this is called with its descriptor (now the callee's to close)
  /// and any bytes the client sent after the request that were already read, and the
  /// connection's place under the caps (docs/api.md §11): the new owner keeps the slot
  /// for as long as the connection lives.
  std::function<void(int fd, std::string early_bytes, ConnectionSlot slot)> take_over;

  void setHeader(const std::string& name, const std::string& value);
  void json(std::string text, int code = 200) {
    status = code;
    body = std::move(text);
    shared_body.reset();
    shared_body_fd = -1;
  }
  std::string_view bodyView() const { return shared_body ? *shared_body : body; }
};

}  // namespace skinpulse::http
