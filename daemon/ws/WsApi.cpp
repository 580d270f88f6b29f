#include "ws/WsApi.hpp"

#include "http/HttpError.hpp"
#include "ws/Handshake.hpp"

namespace skinpulse::ws {

void WsApi::registerRoutes(http::Router& router) {
  router.add(
      "GET", "/api/v1/ws",
      [this](http::Request& request, http::Response& response) { upgrade(request, response); },
      http::RouteOptions{.runs_inline = true});
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
  response.take_over = [this](int fd, std::string early, http::ConnectionSlot slot) {
    hub_.adopt(fd, std::move(early), std::move(slot));
  };
}

}  // namespace skinpulse::ws
