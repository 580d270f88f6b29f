#pragma once

// The configuration schema: every key of the daemon's own sections, as the tables of
// the features that own them (common/OptionTable.hpp). app/ owns [daemon], [log],
// [storage] database_url and redis_url, [catalog] file and [identity]; every module
// lists its own groups in its entry of the module table (app/ModuleTable.cpp): [http] the
// server module, [admin] the admin listener, [rates.NAME] and [source.NAME]'s daemon keys
// the rates and ingest modules, and so on. The other keys of `[source.*]`, `[rates.*]`
// and `[metric.*]` sections are the plugins' and are checked against their descriptors.

#include "app/Settings.hpp"
#include "common/OptionTable.hpp"

#include <string>
#include <vector>

namespace skinpulse::app {

/// app/'s own keys, bound to Settings (rows without a field are read by hand).
const common::OptionTable<Settings>& daemonOptionTable();

/// One feature's keys, for the reference and the checker.
struct OptionGroup {
  std::string title;   ///< "Daemon", "Authentication", ...
  std::string folder;  ///< where its table lives: "daemon/auth/AuthOptions.cpp"
  std::vector<common::OptionSpec> specs;
  /// Keys of an instance section, written "source.NAME.key": documented, but neither
  /// layered with defaults nor among daemonConfigKeys() (buildSettings reads each section).
  bool per_instance = false;
};

/// Every feature's keys, in reference order: app/'s, then the module table's.
const std::vector<OptionGroup>& optionGroups();

/// Every key of every group but the per-instance ones.
const std::vector<common::OptionSpec>& daemonConfigKeys();

/// Sections the daemon owns; any other section except `source.*`, `metric.*` and
/// `rates.*` is an error.
bool isDaemonSection(const std::string& section);

/// docs/configuration.md: every key with its environment variable, type, range, default
/// and description, generated from the tables (skinpulsed --print-config-reference).
std::string renderConfigReference();

}  // namespace skinpulse::app
