#include "app/HealthApi.hpp"

namespace skinpulse {
using http::Request;
using http::Response;
using http::Router;

void HealthApi::registerRoutes(Router& router) {
  router.add("GET", "/healthz",
             [](Request&, Response& response) { response.json("{\"status\":\"ok\"}"); });
  router.add("GET", "/readyz", [this](Request&, Response& response) {
    const Readiness readiness = probe_();
    response.json(readiness.detail_json, readiness.ready ? 200 : 503);
  });
}

}  // namespace skinpulse
