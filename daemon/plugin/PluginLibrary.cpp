#include "plugin/PluginLibrary.hpp"

#include "plugin/DescriptorCheck.hpp"

#include <utility>

namespace skinpulse::plugin {
namespace {

std::string copyText(const char* text) {
  return text != nullptr ? std::string(text) : std::string();
}

}  // namespace

PluginLibrary::PluginLibrary(std::filesystem::path path,
                             std::shared_ptr<boost::dll::shared_library> library,
                             const skinpulse_plugin_descriptor& descriptor, PluginKind kind)
    : path_(std::move(path)),
      library_(std::move(library)),
      kind_(kind),
      name_(copyText(descriptor.name)),
      version_(copyText(descriptor.version)),
      description_(copyText(descriptor.description)),
      create_(descriptor.create),
      destroy_(descriptor.destroy),
      fetch_quotes_(quoteEntry(descriptor)),
      poll_(pollEntry(descriptor)),
      abi_minor_(descriptor.abi_minor) {
  configKeys_.reserve(descriptor.config_key_count);
  for (std::size_t i = 0; i < descriptor.config_key_count; ++i) {
    const skinpulse_config_key& key = descriptor.config_keys[i];
    configKeys_.push_back({copyText(key.name), copyText(key.description), key.required != 0});
  }
}

const ConfigKeyInfo* PluginLibrary::findKey(std::string_view key) const {
  for (const ConfigKeyInfo& info : configKeys_) {
    if (info.name == key) return &info;
  }
  return nullptr;
}

}  // namespace skinpulse::plugin
