#include "plugin/InstanceConfig.hpp"

#include "plugin/ReservedKeys.hpp"
#include "plugin/UserAgent.hpp"

#include <vector>

namespace skinpulse::plugin {
namespace {

std::string acceptedKeys(const PluginLibrary& plugin) {
  if (plugin.configKeys().empty()) return "it accepts no keys";
  std::string list = "accepted: ";
  for (std::size_t i = 0; i < plugin.configKeys().size(); ++i) {
    if (i > 0) list += ", ";
    list += plugin.configKeys()[i].name;
  }
  return list;
}

}  // namespace

PluginResult<std::map<std::string, std::string>> pluginKeysFor(const PluginInstanceSpec& spec,
                                                               const PluginLibrary& plugin) {
  std::map<std::string, std::string> visible;
  std::vector<std::string> problems;
  for (const auto& [key, value] : spec.keys) {
    if (key == kUserAgentKey) {
      if (auto problem = userAgentProblem(value)) {
        problems.push_back("key '" + key + "' " + *problem);
      }
      continue;
    }
    if (isReservedKey(key)) continue;
    if (spec.kind == PluginKind::kSource && key == kSourceKindKey &&
        plugin.findKey(key) == nullptr) {
      continue;  // the daemon's own (ReservedKeys.hpp)
    }
    if (plugin.findKey(key) == nullptr) {
      problems.push_back("unknown key '" + key + "' (" + acceptedKeys(plugin) + ")");
      continue;
    }
    visible.emplace(key, value);
  }
  for (const ConfigKeyInfo& info : plugin.configKeys()) {
    if (!info.required) continue;
    const auto it = visible.find(info.name);
    if (it == visible.end()) {
      problems.push_back("missing required key '" + info.name + "' (" + info.description + ")");
    } else if (it->second.empty()) {
      problems.push_back("required key '" + info.name + "' is empty");
    }
  }
  if (problems.empty()) return PluginResult<std::map<std::string, std::string>>::success(visible);
  std::string message = describeInstance(spec) + " (plugin " + plugin.fileName() + "): ";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (i > 0) message += "; ";
    message += problems[i];
  }
  return PluginResult<std::map<std::string, std::string>>::failure(message);
}

}  // namespace skinpulse::plugin
