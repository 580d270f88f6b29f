#include "app/PluginSetup.hpp"

#include "auth/AuthModule.hpp"
#include "catalog/Catalog.hpp"
#include "common/ConfigError.hpp"
#include "common/Log.hpp"
#include "ingest/IngestModule.hpp"
#include "net/PocoHttpClient.hpp"
#include "plugin/ReservedKeys.hpp"
#include "rates/RatesModule.hpp"

#include <optional>

namespace skinpulse::app {

sdk::PriceKind sourceKind(const plugin::PluginInstanceSpec& spec,
                          const plugin::PluginLibrary* plugin) {
  const auto it = spec.keys.find(std::string(plugin::kSourceKindKey));
  if (it == spec.keys.end()) return sdk::PriceKind::kAsk;
  if (plugin != nullptr && plugin->findKey(plugin::kSourceKindKey) != nullptr)
    return sdk::PriceKind::kAsk;
  const auto kind = sdk::parsePriceKind(it->second);
  if (!kind) {
    throw common::ConfigError("[source." + spec.instance_name + "] kind",
                              "must be ask, bid, sale or reference, not '" + it->second + "'");
  }
  return *kind;
}

namespace {

// What a source's polls tell the daemon, for its start line.
std::string_view reportsWhat(const plugin::SourceInstance& source) {
  if (source.pollEntry() != nullptr) return "poll reports (ABI 1.3)";
  if (source.fetchQuotes() != nullptr) return "quotes (ABI 1.2)";
  return "observations";
}

}  // namespace

PluginSet::PluginSet(const Settings& settings, const sdk::Catalog& catalog)
    : http_(std::make_unique<net::PocoHttpClient>()),
      platform_budget_(
          std::make_unique<net::RequestBudget>(settings.portfolio.gameid_requests_per_minute)),
      source_http_(std::make_unique<net::BudgetedHttpClient>(*http_, *platform_budget_,
                                                             settings.portfolio.inventory_url)),
      services_(std::make_unique<plugin::HostServices>(plugin::HostServices{*http_, catalog})),
      source_services_(
          std::make_unique<plugin::HostServices>(plugin::HostServices{*source_http_, catalog})) {
  registry_.scan(settings.plugin_dir);
  for (const auto& configured : settings.sources) {
    if (!configured.enabled) continue;
    SourceOptions source = configured;
    const plugin::PluginInstanceSpec spec{plugin::PluginKind::kSource, source.name, source.plugin,
                                          source.keys};
    source.kind = sourceKind(spec, registry_.find(plugin::PluginKind::kSource, source.plugin));
    auto created = registry_.createSource(spec, *source_services_);
    if (!created) throw common::ConfigError("[source." + source.name + "]", created.error());
    log::main().info("source '{}' ready (plugin {}, reports {}, {} prices, every {} s)",
                     source.name, source.plugin, reportsWhat(created.value()),
                     sdk::priceKindName(source.kind), source.interval_seconds);
    sources_.push_back(std::move(created).value());
    source_settings_.push_back(std::move(source));
  }
  for (const auto& configured : settings.rates) {
    if (!configured.enabled) continue;
    const plugin::PluginInstanceSpec spec{plugin::PluginKind::kRates, configured.name,
                                          configured.plugin, configured.keys};
    auto created = registry_.createRates(spec, *services_);
    if (!created) throw common::ConfigError("[rates." + configured.name + "]", created.error());
    log::main().info("rates '{}' ready (plugin {}, every {} s)", configured.name, configured.plugin,
                     configured.interval_seconds);
    rates_.push_back(std::move(created).value());
    rates_settings_.push_back(configured);
  }
  for (const auto& provider : settings.identity_providers) {
    const plugin::PluginInstanceSpec spec{plugin::PluginKind::kIdentity, provider.name,
                                          provider.plugin, provider.keys};
    auto created = registry_.createIdentity(spec, *services_);
    if (!created) throw common::ConfigError("identity provider " + provider.name, created.error());
    identity_.push_back(std::move(created).value());
    log::main().info("identity provider '{}' enabled (plugin {})", provider.name, provider.plugin);
  }
  for (const auto& metric : settings.metrics) {
    const plugin::PluginInstanceSpec spec{plugin::PluginKind::kMetric, metric.name, metric.plugin,
                                          metric.keys};
    auto created = registry_.createMetric(spec, *services_);
    if (!created && metric.built_in) {
      log::main().error("built-in metric '{}' unavailable, its fields are left out: {}",
                        metric.name, created.error());
      continue;
    }
    if (!created) throw common::ConfigError("[metric." + metric.name + "]", created.error());
    metrics_.push_back(std::move(created).value());
  }
  metricSet();  // refuses unusable value names before the daemon goes further
  log::main().info("{} metric plugin(s) ready", metrics_.size());
}

metrics::MetricSet PluginSet::metricSet() const {
  std::vector<metrics::MetricSet::Entry> entries;
  for (const auto& metric : metrics_) entries.push_back({metric.instanceName(), metric.get()});
  try {
    return metrics::MetricSet(std::move(entries));
  } catch (const std::invalid_argument& e) {
    throw common::ConfigError("metric plugins", e.what());
  }
}

sdk::HttpClient& PluginSet::httpClient() { return *http_; }

struct PluginSet::Offered {
  ingest::MarketSources sources;
  auth::IdentityProviders identity;
  rates::RatesInstances rates;
  std::optional<metrics::MetricSet> metrics;
};

void PluginSet::provideTo(module::Registry& registry) {
  offered_ = std::make_unique<Offered>();
  for (std::size_t i = 0; i < sources_.size(); ++i) {
    const auto& source = source_settings_[i];
    offered_->sources.sources.push_back(ingest::Scheduler::Source{
        source.name, source.plugin, sources_[i].get(), source.interval_seconds,
        source.timeout_seconds, sources_[i].fetchQuotes(), source.kind, sources_[i].pollEntry()});
  }
  for (const auto& instance : identity_) {
    offered_->identity.entries.push_back(
        auth::ProviderEntry{instance.instanceName(), instance.get()});
  }
  for (std::size_t i = 0; i < rates_.size(); ++i) {
    offered_->rates.instances.push_back({rates_settings_[i], rates_[i].get()});
  }
  offered_->metrics.emplace(metricSet());
  registry.provide(offered_->sources);
  registry.provide(offered_->identity);
  registry.provide(offered_->rates);
  registry.provide(*offered_->metrics);
  registry.provide<sdk::HttpClient>(*http_);
  registry.provide(*platform_budget_);
}

PluginSet::~PluginSet() {
  // Instances first (their Host refers to services_ and http_), explicitly; what was
  // offered of them before.
  offered_.reset();
  metrics_.clear();
  rates_.clear();
  identity_.clear();
  sources_.clear();
}

void PluginSet::describe(common::JsonWriter& json) const {
  json.key("plugins").beginArray();
  for (const auto& row : registry_.report()) {
    json.beginObject()
        .key("file")
        .value(row.file)
        .key("kind")
        .value(row.kind)
        .key("name")
        .value(row.name)
        .key("version")
        .value(row.version)
        .key("status")
        .value(row.status);
    if (!row.reason.empty()) json.key("reason").value(row.reason);
    json.endObject();
  }
  json.endArray();
}

void checkPluginConfiguration(const Settings& settings) {
  const catalog::Catalog empty;
  const PluginSet plugins(settings, empty);
}

}  // namespace skinpulse::app
