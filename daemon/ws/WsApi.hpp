#pragma once

// WsApi: GET /api/v1/ws. The handshake is an ordinary route of our HTTP server (so
// refusals get problem+json and the security headers); a successful one answers 101
// and hands the socket to the LiveHub, which owns it from then on.

#include "http/Router.hpp"
#include "ws/LiveHub.hpp"

namespace skinpulse::ws {

class WsApi {
 public:
  /// `signed_in_origin`: see WsOptions.
  explicit WsApi(LiveHub& hub, std::string signed_in_origin = {})
      : hub_(hub), origin_(std::move(signed_in_origin)) {}
  void registerRoutes(http::Router& router);

 private:
  void upgrade(const http::Request& request, http::Response& response);

  /// Whether the handshake may be signed in: the session's origin and a cookie. Only
  /// those leave the event loop to have their session loaded.
  bool wantsSession(const http::Request& request) const;

  LiveHub& hub_;
  std::string origin_;
};

}  // namespace skinpulse::ws
