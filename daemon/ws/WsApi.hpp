#pragma once

// WsApi: GET /api/v1/ws. The handshake is an ordinary route of our HTTP server (so
// refusals get problem+json and the security headers); a successful one answers 101
// and hands the socket to the LiveHub, which owns it from then on.

#include "http/Router.hpp"
#include "ws/LiveHub.hpp"

namespace skinpulse::ws {

class WsApi {
 public:
  explicit WsApi(LiveHub& hub) : hub_(hub) {}
  void registerRoutes(http::Router& router);

 private:
  void upgrade(const http::Request& request, http::Response& response);

  LiveHub& hub_;
};

}  // namespace skinpulse::ws
