#pragma once

// The module table: every module of the daemon, once, in start order (as nginx lists its
// modules and Redis its commands). One entry per module: its name (Module::name()), its
// option groups (the configuration reference, --check-config and the unknown-key check
// read the same list) and its factory. app/Runtime builds the modules in table order,
// attaches them (module/Module.hpp), registers their routes, starts them in order and
// stops them in reverse; docs/architecture.md's module list is checked against it
// (tests/unit/app/ModuleTableTest.cpp). Adding a module is a folder with its module and
// one entry here (docs/adr/0024-services-and-module-table.md).

#include "app/ConfigSchema.hpp"
#include "app/Settings.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace skinpulse::app {

struct ModuleEntry {
  std::string_view name;
  /// The module's option groups, in reference order; null when it has no keys of its own.
  std::vector<OptionGroup> (*options)() = nullptr;
  /// Builds the module from its options (in `settings`) and the shared services; null when
  /// the configuration turns it off ([admin] listen empty).
  std::unique_ptr<module::Module> (*build)(const Settings& settings, module::Services& services);
};

/// Every module, in start order: rates first (the stored rates are loaded on construction
/// and the first polls run before ingestion starts), ingest last.
const std::vector<ModuleEntry>& moduleTable();

}  // namespace skinpulse::app
