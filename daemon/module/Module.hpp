#pragma once

// Module: the one shape every feature of the daemon has. A feature folder (auth/,
// items/, metrics/, portfolio/, ws/, ingest/, ...) exposes a `<Feature>Module` built from
// its own `<Feature>Options` and the services it uses (database, caches, shared store,
// plugins), which:
//   - registers its HTTP endpoints on the router (before the server listens),
//   - starts its threads and timers in start() and stops them in stop(),
//   - describes itself for GET /readyz.
// app/Runtime keeps the modules in one ordered list (ModuleList): started in order,
// stopped in reverse (docs/architecture.md).

#include "common/Json.hpp"
#include "http/Router.hpp"

#include <string_view>

namespace skinpulse::module {

class Module {
 public:
  virtual ~Module() = default;

  /// Short name for logs ("auth", "ingest").
  virtual std::string_view name() const = 0;

  /// Adds the module's endpoints. Called once, before any module starts.
  virtual void registerRoutes(http::Router& router) { (void)router; }

  /// Starts threads and timers. Throws when the module cannot run; the modules started
  /// before it are then stopped.
  virtual void start() {}

  /// Stops what start() started; called once per successful start(), in reverse order.
  /// False when something could not be stopped in time (a plugin call still running):
  /// the process must then exit without unloading plugins.
  virtual bool stop() { return true; }

  /// Writes the module's keys into the GET /readyz object (nothing by default). False
  /// when the daemon cannot serve without this module.
  virtual bool describeReadiness(JsonWriter& json) const {
    (void)json;
    return true;
  }
};

}  // namespace skinpulse::module
