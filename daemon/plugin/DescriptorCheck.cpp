#include "plugin/DescriptorCheck.hpp"

#include "plugin/PluginKind.hpp"
#include "plugin/ReservedKeys.hpp"

#include <set>

namespace skinpulse::plugin {
namespace {

constexpr std::string_view kSuffix = ".so";

std::string abiText(std::uint32_t major, std::uint32_t minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string quoted(const char* text) {
  return text != nullptr ? "'" + std::string(text) + "'" : std::string("(none)");
}

std::optional<std::string> checkVersions(const skinpulse_plugin_descriptor& d) {
  const std::string versions = "SDK ABI " + abiText(d.abi_major, d.abi_minor) +
                               ", daemon supports " + abiText(sdk::kAbiMajor, sdk::kAbiMinor);
  if (d.abi_major != sdk::kAbiMajor) {
    return versions + " (the major version must be equal; rebuild the plugin against this SDK)";
  }
  if (d.abi_minor > sdk::kAbiMinor) {
    return versions + " (the plugin needs a newer daemon)";
  }
  const std::string_view expected = SKINPULSE_SDK_BUILD_SIGNATURE;
  if (d.build_signature == nullptr || expected != d.build_signature) {
    return "build signature " + quoted(d.build_signature) + " differs from the daemon's '" +
           std::string(expected) + "' (rebuild the plugin with the daemon's toolchain)";
  }
  return std::nullopt;
}

std::optional<std::string> checkIdentity(const skinpulse_plugin_descriptor& d,
                                         std::string_view fileName) {
  const auto kind = kindFromDescriptor(d.kind);
  if (!kind) {
    return "unknown plugin kind " + std::to_string(d.kind) +
           " (daemon knows source=" + std::to_string(SKINPULSE_KIND_SOURCE) +
           ", identity=" + std::to_string(SKINPULSE_KIND_IDENTITY) +
           ", metric=" + std::to_string(SKINPULSE_KIND_METRIC) +
           ", rates=" + std::to_string(SKINPULSE_KIND_RATES) + ")";
  }
  if (*kind == PluginKind::kRates && d.abi_minor < 2) {
    return "plugin kind rates needs SDK ABI 1.2, the descriptor declares " +
           abiText(d.abi_major, d.abi_minor);
  }
  const std::string name = d.name != nullptr ? d.name : "";
  const std::string expected = std::string(kindName(*kind)) + "_" + name + std::string(kSuffix);
  if (fileName != expected) {
    return "file name " + std::string(fileName) +
           " does not match the descriptor, which declares " + std::string(kindName(*kind)) + " '" +
           name + "' (expected file name " + expected + ")";
  }
  if (!isValidPluginName(name)) {
    return "invalid plugin name '" + name + "' (allowed: [a-z0-9_]+)";
  }
  return std::nullopt;
}

std::optional<std::string> checkTables(const skinpulse_plugin_descriptor& d) {
  if (d.create == nullptr || d.destroy == nullptr) {
    return std::string("descriptor lacks a create or destroy function");
  }
  if (d.config_key_count > 0 && d.config_keys == nullptr) {
    return "config key table is missing but config_key_count is " +
           std::to_string(d.config_key_count);
  }
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < d.config_key_count; ++i) {
    const char* key = d.config_keys[i].name;
    if (key == nullptr || *key == '\0') {
      return "config key #" + std::to_string(i) + " has no name";
    }
    if (isReservedKey(key)) {
      return "config key '" + std::string(key) + "' is reserved for the daemon";
    }
    if (d.kind == SKINPULSE_KIND_SOURCE && d.abi_minor >= 2 && key == kSourceKindKey) {
      return "config key 'kind' is reserved for the daemon (the price kind of a source "
             "instance, since SDK ABI 1.2)";
    }
    if (!seen.insert(key).second) {
      return "config key '" + std::string(key) + "' is declared twice";
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> checkDescriptor(const skinpulse_plugin_descriptor* descriptor,
                                           std::string_view fileName) {
  if (descriptor == nullptr) {
    return std::string(SKINPULSE_PLUGIN_ENTRY_SYMBOL "() returned no descriptor");
  }
  if (descriptor->struct_size < kMinDescriptorSize) {
    return "descriptor is " + std::to_string(descriptor->struct_size) +
           " bytes, daemon needs at least " + std::to_string(kMinDescriptorSize) + " (SDK too old)";
  }
  if (auto reason = checkVersions(*descriptor)) return reason;
  if (auto reason = checkIdentity(*descriptor, fileName)) return reason;
  return checkTables(*descriptor);
}

skinpulse_fetch_quotes_fn quoteEntry(const skinpulse_plugin_descriptor& descriptor) {
  if (descriptor.kind != SKINPULSE_KIND_SOURCE || descriptor.abi_minor < 2 ||
      descriptor.struct_size < kQuoteDescriptorSize) {
    return nullptr;
  }
  return descriptor.fetch_quotes;
}

skinpulse_poll_fn pollEntry(const skinpulse_plugin_descriptor& descriptor) {
  if (descriptor.kind != SKINPULSE_KIND_SOURCE || descriptor.abi_minor < 3 ||
      descriptor.struct_size < kPollDescriptorSize) {
    return nullptr;
  }
  return descriptor.poll;
}

bool isValidPluginName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

PluginFileName splitPluginFileName(std::string_view fileName) {
  if (fileName.size() <= kSuffix.size() || !fileName.ends_with(kSuffix)) return {};
  const std::string_view stem = fileName.substr(0, fileName.size() - kSuffix.size());
  const auto underscore = stem.find('_');
  if (underscore == std::string_view::npos || !parseKind(stem.substr(0, underscore))) return {};
  return {std::string(stem.substr(0, underscore)), std::string(stem.substr(underscore + 1))};
}

}  // namespace skinpulse::plugin
