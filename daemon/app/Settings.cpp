#include "app/Settings.hpp"

#include "BuildPaths.hpp"
#include "app/ConfigSchema.hpp"
#include "common/ConfigError.hpp"
#include "common/ValueParsers.hpp"
#include "devmode/DevOptions.hpp"

#include <algorithm>
#include <set>

extern char** environ;

namespace skinpulse::app {
namespace {

using Reader = common::OptionReader;

void applyDefaultsAndEnvironment(common::ConfigTree& tree, const RunLocation& location,
                                 const std::map<std::string, std::string>& environment) {
  for (const auto& spec : daemonConfigKeys()) {
    if (spec.fallback != nullptr && !tree.has(spec.key))
      tree.set(spec.key, spec.fallback, "default");
  }
  if (!tree.has("storage.database_url")) {
    tree.set(
        "storage.database_url",
        location.build_tree ? "sqlite://./var/skinpulse.db" : build_paths::kInstalledDatabaseUrl,
        "default");
  }
  for (const auto& spec : daemonConfigKeys()) {
    if (spec.env == nullptr) continue;
    const auto it = environment.find(spec.env);
    if (it != environment.end()) tree.set(spec.key, it->second, spec.env);
  }
}

void rejectUnknownKeys(const common::ConfigTree& tree) {
  std::set<std::string> known;
  for (const auto& spec : daemonConfigKeys()) known.insert(spec.key);
  for (const auto& section : tree.sections()) {
    if (section.rfind("source.", 0) == 0 || section.rfind("metric.", 0) == 0 ||
        section.rfind("rates.", 0) == 0) {
      continue;
    }
    if (!isDaemonSection(section)) {
      throw common::ConfigError(
          "[" + section + "]",
          "unknown section (expected daemon, http, log, "
          "storage, session, catalog, items, metrics, portfolio, "
          "alerts, gameid, auth, identity, dashboard, quality, admin, api, source.NAME, "
          "metric.NAME or rates.NAME)",
          "[" + section + "]");
    }
    for (const auto& key : tree.keysOf(section)) {
      if (!known.count(section + "." + key)) {
        throw common::ConfigError(tree.describe(section + "." + key), "unknown key",
                                  section + "." + key);
      }
    }
  }
}

// `[metric.NAME]`: plugin (required), enabled (default true), plugin keys. The built-in
// metrics are always on: a section may not name one of them.
void readMetrics(const common::ConfigTree& tree, const Reader& read, Settings& settings) {
  for (const auto& plugin : builtInMetricPlugins()) {
    settings.metrics.push_back(MetricOptions{plugin, plugin, {}, true});
  }
  for (const auto& section : tree.sections()) {
    if (section.rfind("metric.", 0) != 0) continue;
    MetricOptions metric;
    metric.name = section.substr(std::string("metric.").size());
    if (!common::isValidInstanceName(metric.name)) {
      throw common::ConfigError("[" + section + "]", "instance name must match [a-z0-9_-]{1,64}");
    }
    const auto& builtIn = builtInMetricPlugins();
    if (std::find(builtIn.begin(), builtIn.end(), metric.name) != builtIn.end()) {
      throw common::ConfigError("[" + section + "]", "is a built-in metric, always enabled");
    }
    const std::string prefix = section + ".";
    if (!read.present(prefix + "plugin") || read.text(prefix + "plugin").empty()) {
      throw common::ConfigError("[" + section + "] plugin", "missing (the metric plugin to run)");
    }
    metric.plugin = read.text(prefix + "plugin");
    const bool enabled = read.present(prefix + "enabled") ? read.boolean(prefix + "enabled") : true;
    for (const auto& key : tree.keysOf(section)) {
      if (key != "plugin" && key != "enabled") metric.keys[key] = read.text(prefix + key);
    }
    if (enabled) settings.metrics.push_back(std::move(metric));
  }
}

void readIdentityProviders(const Reader& read, Settings& settings) {
  auto add = [&](const char* name, const char* plugin, std::map<std::string, std::string> keys) {
    settings.identity_providers.push_back(IdentityOptions{name, plugin, std::move(keys)});
  };
  const std::string idpaId = read.text("identity.idpa_client_id");
  const std::string idpaSecret = read.text("identity.idpa_client_secret");
  if (!idpaId.empty() && !idpaSecret.empty()) {
    add("idp-a", read.text("identity.idpa_plugin").c_str(),
        {{"flavour", "idp-a"},
         {"client_id", idpaId},
         {"client_secret", idpaSecret},
         {"auth_url", read.text("identity.idpa_auth_url")},
         {"token_url", read.text("identity.idpa_token_url")},
         {"userinfo_url", read.text("identity.idpa_userinfo_url")}});
  }
  const std::string idpbId = read.text("identity.idpb_client_id");
  const std::string idpbSecret = read.text("identity.idpb_client_secret");
  if (!idpbId.empty() && !idpbSecret.empty()) {
    add("idp-b", read.text("identity.idpb_plugin").c_str(),
        {{"flavour", "idp-b"},
         {"client_id", idpbId},
         {"client_secret", idpbSecret},
         {"auth_url", read.text("identity.idpb_auth_url")},
         {"token_url", read.text("identity.idpb_token_url")},
         {"api_url", read.text("identity.idpb_api_url")}});
  }
  if (read.boolean("identity.gameid_openid_enabled")) {
    add("gameid", read.text("identity.gameid_plugin").c_str(),
        {{"openid_url", read.text("identity.gameid_openid_url")},
         {"host", read.text("identity.gameid_host")},
         {"api_url", read.text("identity.gameid_api_url")},
         {"api_key", read.text("identity.gameid_api_key")}});
  }
}

}  // namespace

const std::vector<std::string>& builtInMetricPlugins() {
  static const std::vector<std::string> plugins = {"stddev", "percent_change", "bollinger",
                                                   "coefficient_of_variation", "trend"};
  return plugins;
}

std::vector<std::string> Settings::enabledSourceNames() const {
  std::vector<std::string> names;
  for (const auto& source : sources) {
    if (source.enabled) names.push_back(source.name);
  }
  return names;
}

std::map<std::string, std::string> processEnvironment() {
  std::map<std::string, std::string> result;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const auto equals = text.find('=');
    if (equals != std::string::npos) result[text.substr(0, equals)] = text.substr(equals + 1);
  }
  return result;
}

Settings buildSettings(common::ConfigTree& tree, const RunLocation& location,
                       const std::map<std::string, std::string>& environment) {
  // The thread-per-connection server's pool (docs/adr/0010-front-door.md): still
  // accepted, so old files keep working, but ignored.
  std::vector<std::string> deprecated;
  for (const char* key : {"http.threads", "http.queue"}) {
    if (tree.has(key)) deprecated.push_back(tree.describe(key));
  }
  applyDefaultsAndEnvironment(tree, location, environment);
  rejectUnknownKeys(tree);
  // Development mode may point the gameid provider and the inventory at the daemon's own
  // /dev endpoints (before those keys are read), or refuse to start.
  devmode::applyDevMode(tree, location.config_dir);
  const Reader read(tree);
  Settings s;

  s.base_url = read.text("daemon.base_url");
  while (!s.base_url.empty() && s.base_url.back() == '/') s.base_url.pop_back();
  if (!common::isHttpUrl(s.base_url))
    read.fail("daemon.base_url", "must be an http:// or https:// URL");
  const auto listen = common::parseListenAddress(read.text("daemon.listen"));
  if (!listen) read.fail("daemon.listen", "'" + read.text("daemon.listen") + "' is not HOST:PORT");
  s.listen_host = listen->first;
  s.listen_port = listen->second;
  s.frontend_url =
      read.present("daemon.frontend_url") ? read.text("daemon.frontend_url") : s.base_url + "/";
  if (!common::isHttpUrl(s.frontend_url)) {
    read.fail("daemon.frontend_url", "must be an http:// or https:// URL");
  }
  s.plugin_dir =
      read.present("daemon.plugin_dir")
          ? read.text("daemon.plugin_dir")
          : (location.build_tree ? build_paths::kBuildPluginDir : build_paths::kInstalledPluginDir);
  s.share_dir =
      read.present("daemon.share_dir")
          ? read.text("daemon.share_dir")
          : (location.build_tree ? build_paths::kSourceShareDir : build_paths::kInstalledShareDir);

  common::readOptions(daemonOptionTable(), read, s);
  common::readOptions(httpOptionTable(), read, s.http);
  s.http.host = s.listen_host;
  s.http.port = s.listen_port;
  s.http.access_log = read.boolean("log.access");
  s.http.deprecated_keys = std::move(deprecated);
  s.admin = readAdminOptions(read);

  s.log_level = read.text("log.level");
  static const std::set<std::string> kLevels = {"trace", "debug", "info", "warn", "error", "off"};
  if (!kLevels.count(s.log_level)) {
    read.fail("log.level", "'" + s.log_level + "' is not trace, debug, info, warn, error or off");
  }
  const std::string format = read.text("log.format");
  if (format != "text" && format != "json") read.fail("log.format", "must be text or json");
  s.log_json = format == "json";

  s.database_url = read.text("storage.database_url");
  if (!common::isSupportedDatabaseUrl(s.database_url)) {
    read.fail("storage.database_url",
              "must be sqlite://PATH or postgresql://user:pass@host:port/db");
  }
  s.redis_url = read.text("storage.redis_url");
  if (!s.redis_url.empty() && s.redis_url.rfind("redis://", 0) != 0) {
    read.fail("storage.redis_url", "must be empty or redis://host:port/db");
  }
  s.catalog_file = read.present("catalog.file") ? read.text("catalog.file")
                                                : s.share_dir + "/catalog/items.jsonl";

  // The features' keys, each from its own table.
  s.auth = auth::readAuthOptions(read, s.base_url, s.frontend_url, location.secret_optional);
  common::readOptions(ingest::ingestOptionTable(), read, s.ingest);
  common::readOptions(items::itemsOptionTable(), read, s.items);
  common::readOptions(metrics::metricsOptionTable(), read, s.metrics_options);
  common::readOptions(portfolio::portfolioOptionTable(), read, s.portfolio);
  s.quality = quality::readQualityOptions(read);
  common::readOptions(alerts::alertsOptionTable(), read, s.alerts);
  common::readOptions(access::accessOptionTable(), read, s.api);

  for (const auto& section : tree.sections()) {
    if (section.rfind("source.", 0) == 0) s.sources.push_back(readSourceOptions(read, section));
    if (section.rfind("rates.", 0) == 0) s.rates.push_back(rates::readRatesOptions(read, section));
  }
  readIdentityProviders(read, s);
  s.dev = devmode::readDevOptions(read, s.base_url, s.share_dir);
  readMetrics(tree, read, s);
  return s;
}

}  // namespace skinpulse::app
