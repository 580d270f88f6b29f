#pragma once

// What the daemon's configuration says about one plugin instance, e.g. the INI section
// [source.steam] with `plugin = steam_market` and its keys.

#include "plugin/PluginKind.hpp"

#include <map>
#include <string>

namespace skinpulse::plugin {

struct PluginInstanceSpec {
  PluginKind kind = PluginKind::kSource;
  std::string instance_name;  ///< NAME in [source.NAME]; the provider name for identity
  std::string plugin_name;    ///< descriptor name; empty: keys["plugin"], else instance_name
  std::map<std::string, std::string> keys;  ///< every key of the section, reserved ones too
};

/// The plugin the spec refers to, applying the defaults documented on plugin_name.
std::string effectivePluginName(const PluginInstanceSpec& spec);

/// "source instance 'steam'": how error messages name an instance.
std::string describeInstance(const PluginInstanceSpec& spec);

}  // namespace skinpulse::plugin
