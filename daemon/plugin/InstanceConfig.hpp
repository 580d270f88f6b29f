#pragma once

// Validation of one instance's keys against its plugin's declared key table, before the
// plugin is asked to create anything.

#include "plugin/PluginInstanceSpec.hpp"
#include "plugin/PluginLibrary.hpp"
#include "plugin/PluginResult.hpp"

#include <map>
#include <string>

namespace skinpulse::plugin {

/// The keys the plugin will see: spec.keys without the reserved keys (ReservedKeys.hpp).
/// Fails, listing every problem in one message, when a key is not declared by the plugin
/// ("unknown key 'colour'") or a required key is absent or empty.
PluginResult<std::map<std::string, std::string>> pluginKeysFor(const PluginInstanceSpec& spec,
                                                               const PluginLibrary& plugin);

}  // namespace skinpulse::plugin
