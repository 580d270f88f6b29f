#include "app/HealthApi.hpp"

namespace skinpulse {

void HealthApi::registerRoutes(http::Router& router) {
  router.add("GET", "/healthz", [](http::Request&, http::Response& response) {
    response.json("{\"status\":\"ok\"}");
  });
  router.add("GET", "/readyz", [this](http::Request&, http::Response& response) {
    const Readiness readiness = probe_();
    response.json(readiness.detail_json, readiness.ready ? 200 : 503);
  });
}

}  // namespace skinpulse
