#include "plugin/PluginInstanceSpec.hpp"

namespace skinpulse::plugin {

std::string effectivePluginName(const PluginInstanceSpec& spec) {
  if (!spec.plugin_name.empty()) return spec.plugin_name;
  const auto it = spec.keys.find("plugin");
  if (it != spec.keys.end() && !it->second.empty()) return it->second;
  return spec.instance_name;
}

std::string describeInstance(const PluginInstanceSpec& spec) {
  return std::string(kindName(spec.kind)) + " instance '" + spec.instance_name + "'";
}

}  // namespace skinpulse::plugin
