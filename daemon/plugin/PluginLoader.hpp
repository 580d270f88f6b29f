#pragma once

// Loads one plugin shared object and decides whether the daemon accepts it.
//
// Order of checks (each refusal has its own reason, see DescriptorCheck.hpp for the
// descriptor's): the file starts with the ELF magic; dlopen (Boost.DLL, rtld_now |
// rtld_local) succeeds; the entry symbol `skinpulse_plugin_entry` exists; then the
// descriptor checks. Nothing in the plugin is called before the entry point, and create()
// is never called here. Call from one thread (dlopen of plugins is not made concurrent).

#include "plugin/PluginLibrary.hpp"
#include "plugin/PluginReport.hpp"

#include <filesystem>
#include <optional>

namespace skinpulse::plugin {

struct LoadOutcome {
  std::optional<PluginLibrary> plugin;  ///< set when accepted
  PluginReportRow row;                  ///< always set: "loaded", or "refused" with a reason
};

/// Never throws and never logs: the caller (PluginRegistry) logs the outcome.
LoadOutcome loadPlugin(const std::filesystem::path& path);

}  // namespace skinpulse::plugin
