#include "http/handlers/HealthApi.hpp"

namespace skinpulse::http {

void HealthApi::registerRoutes(Router& router) {
  router.add("GET", "/healthz",
             [](Request&, Response& response) { response.json("{\"status\":\"ok\"}"); });
  router.add("GET", "/readyz", [this](Request&, Response& response) {
    const Readiness readiness = probe_();
    response.json(readiness.detail_json, readiness.ready ? 200 : 503);
  });
}

}  // namespace skinpulse::http
