#pragma once

// Router: method + path pattern → handler. Patterns are literal segments and `:name`
// parameters ("/api/v1/items/:id"). Immutable once the server starts, so lookups need
// no locking. A path that matches a pattern under another method is a 405 with Allow;
// HEAD is served by the GET handler of the same path.
//
// Route policy (docs/adr/0025-price-policy-and-route-policy.md): what a response needs
// beyond its handler (Cache-Control: no-store, a rate limit) is declared by the module
// that owns the routes, on each route (RouteOptions) or on a path prefix (policy()),
// never named in the transport: the dispatcher and the connection only ask the router.

#include "http/Request.hpp"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
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
  /// Cache-Control: no-store on every response (docs/api.md §2): answers about a
  /// signed-in user that no shared cache may keep.
  bool no_store = false;
  /// The rate-limit budget the guard counts this route's requests against (docs/api.md
  /// §5); empty: none. The guard knows which scopes it limits (auth::AuthGuard).
  std::string rate_limit_scope = {};
  /// The largest request body this route takes, in bytes (413 payload_too_large above
  /// it); 0: the server's ServerOptions::max_body_bytes. For the few routes that take a
  /// file (a CSV upload) without raising the cap of every other route.
  std::size_t max_body_bytes = 0;
};

/// What every path equal to or under a prefix gets, whether a route matches it or not
/// (404, 405, a framing error answered before routing): declared by the module that owns
/// the prefix, merged into the options of each route matched under it.
struct PathPolicy {
  bool no_store = false;              ///< RouteOptions::no_store
  std::string rate_limit_scope = {};  ///< RouteOptions::rate_limit_scope, when the route has none
};

class Router {
 public:
  void add(const std::string& method, const std::string& pattern, Handler handler,
           RouteOptions options = {});
  /// `policy` for `prefix` and every path under it, segment by segment:
  /// "/api/v1/things" covers "/api/v1/things/7/parts", not "/api/v1/thingsx".
  void policy(const std::string& prefix, PathPolicy policy);

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
  /// handler == nullptr and allowed empty: no such path (404). A matched route's options
  /// carry the policies of the prefixes over `path`.
  Match match(const std::string& method, const std::string& path,
              std::map<std::string, std::string>& params) const;

  /// Whether the response to `path` must carry Cache-Control: no-store. With a matched
  /// route, its options say; otherwise (404, 405, or `match` empty: a refusal before
  /// routing) a prefix policy over `path`, or any route of `path` under another method.
  bool noStore(const std::string& path, const Match& match) const;

  /// The body cap of the route of `method` `path` (RouteOptions::max_body_bytes), or
  /// `fallback` when it has none or no route matches. Asked from the request line alone,
  /// before a byte of the body is read.
  std::size_t bodyLimit(std::string_view method, std::string_view path, std::size_t fallback) const;

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

  /// The policies of the prefixes over `path`, merged.
  PathPolicy prefixPolicy(std::string_view path) const;

  std::vector<Route> routes_;
  std::vector<std::pair<std::string, PathPolicy>> policies_;  ///< by prefix, in order added
  bool any_body_limit_ = false;  ///< some route has its own max_body_bytes
};

}  // namespace skinpulse::http
