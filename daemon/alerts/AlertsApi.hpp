#pragma once

// AlertsApi: the endpoints of docs/api.md §13 — GET/POST /api/v1/alerts,
// GET/PATCH/DELETE /api/v1/alerts/:id, GET /api/v1/alerts/:id/deliveries. Every one needs
// a signed-in session; the writes need the CSRF token (the request guard checks both).

#include "alerts/AlertsService.hpp"
#include "http/Router.hpp"

namespace skinpulse::alerts {

/// Deliveries GET .../deliveries lists, newest first.
inline constexpr std::size_t kDeliveriesListed = 100;

class AlertsApi {
 public:
  explicit AlertsApi(AlertsService& service) : service_(service) {}
  void registerRoutes(http::Router& router);

  void list(http::Request& request, http::Response& response);
  void create(http::Request& request, http::Response& response);
  void show(http::Request& request, http::Response& response);
  void patch(http::Request& request, http::Response& response);
  void remove(http::Request& request, http::Response& response);
  void deliveries(http::Request& request, http::Response& response);

 private:
  AlertsService& service_;
};

}  // namespace skinpulse::alerts
