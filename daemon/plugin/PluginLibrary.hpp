#pragma once

// PluginLibrary: one accepted plugin shared object, with what the daemon copied out of its
// descriptor. The library handle is shared: every instance created from it holds a
// reference too, so the code stays mapped while any of its objects lives.

#include "skinpulse/sdk/plugin.hpp"

#include "plugin/PluginKind.hpp"

#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugin {

/// One entry of a descriptor's config_keys table, copied into daemon memory.
struct ConfigKeyInfo {
  std::string name;
  std::string description;
  bool required = false;
};

class PluginLibrary {
 public:
  /// `descriptor` must have passed checkDescriptor() and belong to `library`.
  PluginLibrary(std::filesystem::path path, std::shared_ptr<boost::dll::shared_library> library,
                const skinpulse_plugin_descriptor& descriptor, PluginKind kind);

  const std::filesystem::path& path() const { return path_; }
  std::string fileName() const { return path_.filename().string(); }
  PluginKind kind() const { return kind_; }
  const std::string& name() const { return name_; }
  const std::string& version() const { return version_; }
  const std::string& description() const { return description_; }
  const std::vector<ConfigKeyInfo>& configKeys() const { return configKeys_; }
  /// The declared key called `key`, or nullptr.
  const ConfigKeyInfo* findKey(std::string_view key) const;

  const std::shared_ptr<boost::dll::shared_library>& library() const { return library_; }
  skinpulse_create_fn createFunction() const { return create_; }
  skinpulse_destroy_fn destroyFunction() const { return destroy_; }
  /// The ABI 1.2 fetch entry of a QuoteSource plugin; nullptr for older sources (the host
  /// adapts their fetch()) and for other kinds.
  skinpulse_fetch_quotes_fn fetchQuotesFunction() const { return fetch_quotes_; }
  /// The ABI 1.3 poll entry of a ReportingSource plugin; nullptr for older sources and for
  /// other kinds.
  skinpulse_poll_fn pollFunction() const { return poll_; }
  /// "1.2": the SDK ABI the plugin was built against.
  std::uint32_t abiMinor() const { return abi_minor_; }

 private:
  std::filesystem::path path_;
  std::shared_ptr<boost::dll::shared_library> library_;
  PluginKind kind_;
  std::string name_;
  std::string version_;
  std::string description_;
  std::vector<ConfigKeyInfo> configKeys_;
  skinpulse_create_fn create_;
  skinpulse_destroy_fn destroy_;
  skinpulse_fetch_quotes_fn fetch_quotes_;
  skinpulse_poll_fn poll_;
  std::uint32_t abi_minor_;
};

}  // namespace skinpulse::plugin
