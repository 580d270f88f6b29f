#pragma once

// Router: method + path pattern → handler. Patterns are literal segments and `:name`
// parameters ("/api/v1/items/:id"). Immutable once the server starts, so lookups need
// no locking. A path that matches a pattern under another method is a 405 with Allow;
// HEAD is served by the GET handler of the same path.

#include "http/Request.hpp"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::http {

using Handler = std::function<void(Request&, Response&)>;

struct RouteOptions {
  bool accepts_body = false;  ///< a body on a route without one is 400 invalid_body
  /// RequireAuth: without a signed-in session the guard answers 401 unauthenticated
  /// (503 store_unavailable when the session store is down).
  bool requires_user = false;
  /// The handler answers from memory (immutable snapshots, caches) and never blocks: it
  /// runs on the connection's event loop instead of the worker pool, and the guard does
  /// not load the session for it (docs/adr/0010-front-door.md). Only for public GET
  /// routes; anything that may touch the database, the shared store or an upstream
  /// stays false (the worker pool, the safe default).
  bool runs_inline = false;
  /// For a runs_inline route: requests this says yes to run on the worker pool with
  /// their session loaded instead (the WebSocket handshake of a signed-in dashboard).
  std::function<bool(const Request&)> needs_session = {};
};

class Router {
 public:
  void add(const std::string& method, const std::string& pattern, Handler handler,
           RouteOptions options = {});

  static constexpr std::string_view kUnmatchedRoute = "unmatched";
  struct Match {
    const Handler* handler = nullptr;  ///< null: see `allowed`
    RouteOptions options;
    std::vector<std::string> allowed;  ///< methods of the path when the method did not match
    /// The pattern of the route ("/api/v1/items/:id"), also when only the method did not
    /// match; "unmatched" for a path no route has. The metrics' route label: a template,
    /// never the raw path (docs/operations.md, "Prometheus metrics").
    std::string_view route = kUnmatchedRoute;
  };

  /// Finds the route of `method` `path`, filling request path parameters into `params`.
  /// handler == nullptr and allowed empty: no such path (404).
  Match match(const std::string& method, const std::string& path,
              std::map<std::string, std::string>& params) const;

 private:
  struct Route {
    std::string method;
    std::string pattern;
    std::vector<std::string> segments;  ///< ":name" for parameters
    Handler handler;
    RouteOptions options;
  };

  static bool matches(const Route& route, const std::vector<std::string_view>& segments,
                      std::map<std::string, std::string>* params);

  std::vector<Route> routes_;
};

}  // namespace skinpulse::http
