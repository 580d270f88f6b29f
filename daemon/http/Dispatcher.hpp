#pragma once

// Dispatcher: the request pipeline between the socket adapter and the handlers, in the
// order of docs/api.md §2: route (404/405) → guard (rate limit, session, CSRF; see
// RequestGuard) → body allowed (400) → handler; every
// response then gets the security headers. The body-size check (413) happens in the
// server (HttpConnection), before a byte of an oversized body is buffered. Thread-safe:
// the event loops and the worker pool dispatch concurrently.

#include "http/Request.hpp"
#include "http/RequestGuard.hpp"
#include "http/Router.hpp"

namespace skinpulse::http {

class Dispatcher {
 public:
  /// `guard` may be null (no sessions: tests of the routing alone); it must outlive the
  /// dispatcher.
  explicit Dispatcher(const Router& router, const RequestGuard* guard = nullptr)
      : router_(router), guard_(guard) {}

  /// Fills `response` for `request`; never throws.
  void dispatch(Request& request, Response& response) const {
    dispatch(request, response, route(request));
  }
  /// The route of `request` (path parameters filled in): the server asks it first to
  /// decide where the handler runs (RouteOptions::runs_inline).
  Router::Match route(Request& request) const;
  /// dispatch() with the route already looked up by route(). `admitted`: the guard
  /// already admitted this request (an inline handler handed it to a worker,
  /// Response::run_on_worker), so it is not run, nor counted, twice.
  void dispatch(Request& request, Response& response, const Router::Match& match,
                bool admitted = false) const;
  /// The headers every response gets (applySecurityHeaders), Cache-Control: no-store
  /// where the routes' policy asks for it (Router::noStore). For a refusal sent before
  /// routing, `match` is empty.
  void applyHeaders(const std::string& path, const Router::Match& match, Response& response) const;
  /// Router::bodyLimit: the body cap of a request, from its request line.
  std::size_t bodyLimit(std::string_view method, std::string_view path,
                        std::size_t fallback) const {
    return router_.bodyLimit(method, path, fallback);
  }

 private:
  const Router& router_;
  const RequestGuard* guard_;
};

/// The four headers of docs/api.md on every response, and Cache-Control: no-store when
/// `no_store` (docs/api.md §2; the routes declare it: Router::noStore).
void applySecurityHeaders(bool no_store, Response& response);

}  // namespace skinpulse::http
