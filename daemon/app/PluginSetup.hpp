#pragma once

// PluginSet: the plugin side of a daemon — the registry scanned from the plugin
// directory, and one instance per enabled `[source.NAME]` and `[rates.NAME]` section and
// per identity provider enabled by its environment variables. Building it is part of configuration:
// an enabled instance that cannot be created (unknown or refused plugin, unknown key,
// missing required key, a factory that throws) is a ConfigError, raised before the
// daemon touches its database or a socket. A bad plugin file nobody uses is only
// reported.

#include "skinpulse/sdk/host.hpp"

#include "app/Settings.hpp"
#include "common/Json.hpp"
#include "metrics/MetricSet.hpp"
#include "module/Registry.hpp"
#include "net/BudgetedHttpClient.hpp"
#include "net/RequestBudget.hpp"
#include "plugin/PluginRegistry.hpp"

#include <memory>
#include <vector>

namespace skinpulse::net {

class PocoHttpClient;
}  // namespace skinpulse::net

namespace skinpulse::app {
class PluginSet {
 public:
  PluginSet(const Settings& settings, const sdk::Catalog& catalog);
  ~PluginSet();

  const plugin::PluginRegistry& registry() const { return registry_; }
  const std::vector<plugin::SourceInstance>& sources() const { return sources_; }
  /// The settings of each created source, parallel to sources().
  const std::vector<SourceOptions>& sourceSettings() const { return source_settings_; }
  const std::vector<plugin::IdentityInstance>& identityProviders() const { return identity_; }
  /// The metric instances: the built-in ones first, then `[metric.NAME]` in config order.
  const std::vector<plugin::MetricInstance>& metrics() const { return metrics_; }
  /// One instance per enabled `[rates.NAME]` section, in configuration order.
  const std::vector<plugin::RatesInstance>& rates() const { return rates_; }
  /// The settings of each created rates instance, parallel to rates().
  const std::vector<rates::RatesOptions>& ratesSettings() const { return rates_settings_; }
  /// The metrics as the engine uses them; valid while this PluginSet lives. Throws
  /// ConfigError when a metric's value names are unusable (see MetricSet).
  metrics::MetricSet metricSet() const;

  /// The host HTTP client (timeouts, byte caps, one watchdog thread) the plugins use; the
  /// daemon's own upstream calls (inventory import) share it.
  sdk::HttpClient& httpClient();
  /// The game platform's request budget ([gameid] requests_per_minute): source plugins
  /// draw from it through their HTTP client, inventory imports directly.
  net::RequestBudget& platformBudget() { return *platform_budget_; }

  /// Adds a "plugins" member to an open JSON object (for /readyz).
  void describe(common::JsonWriter& json) const;

  /// Offers the plugin side to the modules, each part as the type of the folder that uses
  /// it: ingest::MarketSources, auth::IdentityProviders, rates::RatesInstances,
  /// metrics::MetricSet (taken by the metrics module), sdk::HttpClient and
  /// net::RequestBudget. Call once, before the modules are built; valid while this lives.
  void provideTo(module::Registry& registry);

 private:
  std::unique_ptr<net::PocoHttpClient> http_;  // first: outlives every instance that uses it
  std::unique_ptr<net::RequestBudget> platform_budget_;
  std::unique_ptr<net::BudgetedHttpClient> source_http_;  ///< http_ within the budget
  std::unique_ptr<plugin::HostServices> services_;
  std::unique_ptr<plugin::HostServices> source_services_;
  plugin::PluginRegistry registry_;
  std::vector<SourceOptions> source_settings_;
  std::vector<plugin::SourceInstance> sources_;
  std::vector<plugin::IdentityInstance> identity_;
  std::vector<plugin::MetricInstance> metrics_;
  std::vector<rates::RatesOptions> rates_settings_;
  std::vector<plugin::RatesInstance> rates_;
  struct Offered;
  std::unique_ptr<Offered> offered_;  ///< what provideTo() offered
};

/// The `kind` key of a source instance as the daemon reads it (docs/adr/0011-sdk-abi-1-2.md):
/// ask unless set; a plugin older than ABI 1.2 that declares a `kind` key of its own
/// (`plugin`, null when not loaded) keeps it, and its prices are asks. Throws ConfigError
/// for a value other than ask, bid, sale or reference.
sdk::PriceKind sourceKind(const plugin::PluginInstanceSpec& spec,
                          const plugin::PluginLibrary* plugin);

/// For --check-config and `skinpulsectl check-config`: builds (and drops) a PluginSet
/// over an empty catalogue. Throws ConfigError.
void checkPluginConfiguration(const Settings& settings);

}  // namespace skinpulse::app
