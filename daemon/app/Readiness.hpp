#pragma once

// ReadinessReport: the GET /readyz body, assembled from the shared services and every
// module's keys. `detailed` (the admin listener) adds plugin files, versions, sources and
// their errors; otherwise only the status, the components' ok and the ingest role (the
// public listener; docs/api.md). Once the daemon is stopping (app/DrainState.hpp) both
// add "state": "draining" and are never ready. app/Runtime provides it
// in the registry; the health and admin modules require it.

#include "app/DrainState.hpp"
#include "app/PluginSetup.hpp"
#include "module/ModuleList.hpp"
#include "module/Services.hpp"

#include <string>

namespace skinpulse::app {

struct Readiness {
  bool ready = false;
  std::string detail_json;  ///< a JSON object
};

class ReadinessReport {
 public:
  /// Every reference must outlive the report.
  ReadinessReport(const module::Services& services, const PluginSet& plugins,
                  const module::ModuleList& modules, const DrainState& drain)
      : services_(services), plugins_(plugins), modules_(modules), drain_(drain) {}

  Readiness operator()(bool detailed) const;

 private:
  const module::Services& services_;
  const PluginSet& plugins_;
  const module::ModuleList& modules_;
  const DrainState& drain_;
};

}  // namespace skinpulse::app
