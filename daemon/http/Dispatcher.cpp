#include "http/Dispatcher.hpp"

#include "common/Log.hpp"
#include "common/StoreUnavailable.hpp"
#include "http/HttpError.hpp"
#include "http/Problem.hpp"

namespace skinpulse::http {
namespace {

std::string joinMethods(const std::vector<std::string>& methods) {
  std::string out;
  for (const auto& method : methods) {
    if (!out.empty()) out += ", ";
    out += method;
  }
  return out;
}

}  // namespace

void applySecurityHeaders(bool no_store, Response& response) {
  response.setHeader("X-Content-Type-Options", "nosniff");
  response.setHeader("X-Frame-Options", "DENY");
  response.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  response.setHeader("X-XSS-Protection", "1; mode=block");
  if (no_store) response.setHeader("Cache-Control", "no-store");
}

void Dispatcher::applyHeaders(const std::string& path, const Router::Match& match,
                              Response& response) const {
  applySecurityHeaders(router_.noStore(path, match), response);
}

Router::Match Dispatcher::route(Request& request) const {
  return router_.match(request.method, request.path, request.path_params);
}

void Dispatcher::dispatch(Request& request, Response& response, const Router::Match& match,
                          bool admitted) const {
  try {
    if (match.handler == nullptr) {
      if (match.allowed.empty()) throw HttpError::notFound();
      throw HttpError(405, "method_not_allowed",
                      request.method + " is not allowed here; use " + joinMethods(match.allowed),
                      {{"Allow", joinMethods(match.allowed)}});
    }
    if (guard_ != nullptr && !admitted) guard_->admit(request, match.options);
    if (!match.options.accepts_body && !request.body.empty()) {
      throw HttpError(400, "invalid_body", "this endpoint takes no request body");
    }
    (*match.handler)(request, response);
  } catch (const HttpError& error) {
    // Headers the guard or handler set before refusing (Set-Cookie of a session it had
    // to create, for one) are dropped with the rest of the response.
    response = Response();
    renderProblem(error, response);
  } catch (const common::StoreUnavailable& error) {
    // Fail closed: whatever needed the shared store (session, lock, rate limit) is
    // refused, never guessed.
    log::main().warn("{} {}: {}", request.method, request.path, error.what());
    response = Response();
    renderProblem(HttpError(503, "store_unavailable",
                            "the shared state store is unavailable; try again shortly",
                            {{"Retry-After", "5"}}),
                  response);
  } catch (const std::exception& error) {
    log::main().error("{} {} failed: {}", request.method, request.path, error.what());
    response = Response();
    renderProblem(HttpError(500, "internal_error", "the server could not complete the request"),
                  response);
  }
  applyHeaders(request.path, match, response);
}

}  // namespace skinpulse::http
