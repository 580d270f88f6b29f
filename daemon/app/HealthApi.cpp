#include "app/HealthApi.hpp"

namespace skinpulse::app {
using http::Request;
using http::Response;
using http::Router;

void HealthApi::registerRoutes(Router& router) {
  router.add(
      "GET", "/healthz", [](Request&, Response& response) { response.json("{\"status\":\"ok\"}"); },
      http::RouteOptions{.runs_inline = true});
  // Not inline: the probe pings the database and the shared store, which may block.
  router.add("GET", "/readyz", [this](Request&, Response& response) {
    const Readiness readiness = probe_();
    response.json(readiness.detail_json, readiness.ready ? 200 : 503);
  });
}

}  // namespace skinpulse::app
