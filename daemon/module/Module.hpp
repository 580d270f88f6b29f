#pragma once

// Module: the one shape every feature of the daemon has. A feature folder (auth/,
// items/, metrics/, portfolio/, ws/, ingest/, ...) exposes a `<Feature>Module` built as
// `XModule(module::Services&, XOptions)` — the shared services (module/Services.hpp) and
// its own options — which:
//   - offers what other modules use through the registry while it is built,
//   - attaches itself in attach(): takes what it needs of the registry (ingest's cycle
//     hooks, another module's interface) and adds its observers and hooks there,
//   - registers its HTTP endpoints on the router (before the server listens),
//   - starts its threads and timers in start() and stops them in stop(),
//   - describes itself for GET /readyz.
// app/ModuleTable.cpp lists the modules once, in start order; app/Runtime builds them
// all, attaches them, registers their routes, starts them in order and stops them in
// reverse (ModuleList; docs/adr/0024-services-and-module-table.md).

#include "common/Json.hpp"
#include "http/Router.hpp"

#include <string_view>

namespace skinpulse::module {

struct Services;

class Module {
 public:
  virtual ~Module() = default;

  /// Short name for logs ("auth", "ingest").
  virtual std::string_view name() const = 0;

  /// Takes what the module needs of other modules (services.registry.require<T>()) and
  /// attaches its observers and hooks to them. Called once, in list order, after every
  /// module is built and before routes are registered.
  virtual void attach(Services& services) { (void)services; }

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
  virtual bool describeReadiness(common::JsonWriter& json) const {
    (void)json;
    return true;
  }
};

}  // namespace skinpulse::module
