#pragma once

// GET /healthz (the process answers) and GET /readyz (it can serve: database reachable;
// the body details plugins and sources so an admin sees degraded parts).

#include "http/Router.hpp"

#include <functional>
#include <string>

namespace skinpulse {

struct Readiness {
  bool ready = false;
  std::string detail_json;  ///< a JSON object
};

class HealthApi {
 public:
  explicit HealthApi(std::function<Readiness()> probe) : probe_(std::move(probe)) {}
  void registerRoutes(http::Router& router);

 private:
  std::function<Readiness()> probe_;
};

}  // namespace skinpulse
