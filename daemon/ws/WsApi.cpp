#include "ws/WsApi.hpp"

#include "http/HttpError.hpp"
#include "ws/Handshake.hpp"

namespace skinpulse::ws {

void WsApi::registerRoutes(http::Router& router) {
  router.add(
      "GET", "/api/v1/ws",
      [this](http::Request& request, http::Response& response) { upgrade(request, response); },
      http::RouteOptions{.runs_inline = true, .needs_session = [this](const http::Request& r) {
                           return wantsSession(r);
                         }});
}

bool WsApi::wantsSession(const http::Request& request) const {
  if (origin_.empty()) return false;
  const auto origin = request.header("Origin");
  return origin && *origin == origin_ && request.header("Cookie").has_value();
}

void WsApi::upgrade(const http::Request& request, http::Response& response) {
  if (request.method != "GET") {
    // HEAD reaches GET routes; a protocol switch has no HEAD form.
    throw http::HttpError(405, "method_not_allowed", "use GET to open a WebSocket",
                          {{"Allow", "GET"}});
  }
  acceptHandshake(request, response);
  if (!hub_.accepting()) {
    throw http::HttpError(503, "unavailable", "live updates are not running",
                          {{"Retry-After", "5"}});
  }
  // Last of the checks: a claimed share is only given back when the connection closes.
  if (!request.connection.claimWebSocket()) {
    throw http::HttpError(503, "too_many_connections",
                          "too many WebSockets from this client; close one and try again",
                          {{"Retry-After", "5"}});
  }
  // Signed in: a live session of a user, and the dashboard's own origin (a page of
  // another site cannot ride the browser's cookie into a user's alerts).
  // Such a connection ends with its session (4001; docs/api.md §7).
  std::string user;
  std::string session_key;
  std::int64_t expires_at = 0;
  if (wantsSession(request) && request.session.signedIn()) {
    user = request.session.user_id;
    session_key = request.session.key;
    expires_at = request.session.expires_at;
  }
  response.take_over = [this, user, session_key, expires_at](int fd, std::string early,
                                                             http::ConnectionSlot slot) {
    hub_.adopt(fd, std::move(early), std::move(slot), user, session_key, expires_at);
  };
}

}  // namespace skinpulse::ws
