#pragma once

// GET /healthz (the process answers) and GET /readyz (it can serve: database reachable).
// The probe decides the body: on the public listener only the status, the components'
// ok and the ingest role; on the admin listener (AdminModule) plugins and sources too,
// so an admin sees degraded parts (app/Readiness.hpp).

#include "app/Readiness.hpp"
#include "module/Module.hpp"

#include <functional>
#include <string>

namespace skinpulse::app {

/// The health endpoints as a module of their own: routes only.
class HealthApi final : public module::Module {
 public:
  /// `probe` answers GET /readyz.
  explicit HealthApi(std::function<Readiness()> probe) : probe_(std::move(probe)) {}

  std::string_view name() const override { return "health"; }
  void registerRoutes(http::Router& router) override;

 private:
  std::function<Readiness()> probe_;
};

}  // namespace skinpulse::app
