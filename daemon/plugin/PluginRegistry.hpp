#pragma once

// PluginRegistry: the plugins the daemon accepted, a report row for every file it looked
// at, and the factory for plugin instances.
//
// A bad plugin file never stops anything: it is refused with one warn line on the main
// logger ("plugin source_old.so refused: SDK ABI 2.0, daemon supports 1.0 (...)") and one
// report row. Instance creation returns PluginResult (see PluginResult.hpp): the caller
// decides whether a failure is fatal (required instance) or logged and reported.
//
// Threads: scan()/load() from one thread at startup; afterwards the const members may be
// called concurrently. Instances keep their library loaded on their own: the registry may
// be destroyed before them.

#include "skinpulse/sdk/identity.hpp"
#include "skinpulse/sdk/metric.hpp"
#include "skinpulse/sdk/source.hpp"

#include "plugin/HostServices.hpp"
#include "plugin/PluginInstance.hpp"
#include "plugin/PluginInstanceSpec.hpp"
#include "plugin/PluginKind.hpp"
#include "plugin/PluginLibrary.hpp"
#include "plugin/PluginReport.hpp"
#include "plugin/PluginResult.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugin {

struct LoadOutcome;

class PluginRegistry {
 public:
  PluginRegistry() = default;
  PluginRegistry(const PluginRegistry&) = delete;
  PluginRegistry& operator=(const PluginRegistry&) = delete;
  PluginRegistry(PluginRegistry&&) = default;
  PluginRegistry& operator=(PluginRegistry&&) = default;
  ~PluginRegistry() = default;

  /// Loads every regular `*.so` file directly in `directory` (not recursive), in file-name
  /// order. May be called for several directories; a plugin whose kind and name are already
  /// loaded is refused as a duplicate. Returns how many files this call accepted; an
  /// unreadable directory is one warn line and 0.
  std::size_t scan(const std::filesystem::path& directory);

  /// Loads one file with the same checks and reporting as scan(); true when accepted.
  bool load(const std::filesystem::path& file);

  /// One row per file seen, in the order seen.
  const std::vector<PluginReportRow>& report() const { return report_; }

  /// The accepted plugins, in load order.
  const std::vector<PluginLibrary>& plugins() const { return plugins_; }

  /// The accepted plugin of that kind and name, or nullptr.
  const PluginLibrary* find(PluginKind kind, std::string_view name) const;

  /// The declared config keys of a loaded plugin, or nullptr when it is not loaded.
  const std::vector<ConfigKeyInfo>* configKeys(PluginKind kind, std::string_view name) const;

  /// Everything create() checks before calling into the plugin: the plugin is loaded and of
  /// the spec's kind, keys known, required keys present. nullopt when valid, else the
  /// message create() would give. For --validate-config.
  std::optional<std::string> validate(const PluginInstanceSpec& spec) const;

  /// Validates `spec`, then asks the plugin to create an instance with a fresh HostImpl.
  /// `Interface` is sdk::MarketSource, sdk::IdentityProvider or sdk::Metric and must match
  /// spec.kind. Failure messages name the instance; a plugin's create() error (or the
  /// message of the exception its constructor threw) is included verbatim.
  template <typename Interface>
  PluginResult<PluginInstance<Interface>> create(const PluginInstanceSpec& spec,
                                                 const HostServices& services) const;

  PluginResult<SourceInstance> createSource(const PluginInstanceSpec& spec,
                                            const HostServices& services) const {
    return create<sdk::MarketSource>(spec, services);
  }
  PluginResult<IdentityInstance> createIdentity(const PluginInstanceSpec& spec,
                                                const HostServices& services) const {
    return create<sdk::IdentityProvider>(spec, services);
  }
  PluginResult<MetricInstance> createMetric(const PluginInstanceSpec& spec,
                                            const HostServices& services) const {
    return create<sdk::Metric>(spec, services);
  }
  PluginResult<RatesInstance> createRates(const PluginInstanceSpec& spec,
                                          const HostServices& services) const {
    return create<sdk::RateSource>(spec, services);
  }

 private:
  // An object fresh from a plugin's create(), not yet typed.
  struct RawInstance {
    std::string pluginName;
    std::string instanceName;
    std::unique_ptr<HostImpl> host;
    void* object = nullptr;
    std::shared_ptr<boost::dll::shared_library> library;
    skinpulse_destroy_fn destroy = nullptr;
    skinpulse_fetch_quotes_fn fetch_quotes = nullptr;
    skinpulse_poll_fn poll = nullptr;
  };

  PluginResult<RawInstance> createRaw(const PluginInstanceSpec& spec, PluginKind expected,
                                      const HostServices& services) const;
  // The plugin for spec (loaded, right kind) or the message saying why there is none.
  PluginResult<const PluginLibrary*> resolve(const PluginInstanceSpec& spec,
                                             PluginKind expected) const;
  const PluginReportRow* findRow(PluginKind kind, std::string_view name) const;
  bool accept(LoadOutcome&& outcome);

  std::vector<PluginLibrary> plugins_;
  std::vector<PluginReportRow> report_;
};

template <typename Interface>
PluginResult<PluginInstance<Interface>> PluginRegistry::create(const PluginInstanceSpec& spec,
                                                               const HostServices& services) const {
  PluginResult<RawInstance> raw = createRaw(spec, kKindOf<Interface>, services);
  if (!raw) return PluginResult<PluginInstance<Interface>>::failure(raw.error());
  RawInstance& made = raw.value();
  // Typed and owned at once: from here on the deleter is responsible for the object.
  typename PluginInstance<Interface>::Object object(
      static_cast<Interface*>(made.object), PluginDeleter<Interface>(made.library, made.destroy));
  return PluginResult<PluginInstance<Interface>>::success(PluginInstance<Interface>(
      std::move(made.pluginName), std::move(made.instanceName), std::move(made.host),
      std::move(object), made.fetch_quotes, made.poll));
}

}  // namespace skinpulse::plugin
