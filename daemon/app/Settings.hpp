#pragma once

// Settings: the validated configuration of one daemon, built from a ConfigTree. Every
// value the daemon uses is here, typed and checked once at start; nothing else reads
// the raw tree.

#include "skinpulse/sdk/types.hpp"

#include "access/AccessOptions.hpp"
#include "alerts/AlertsOptions.hpp"
#include "app/AdminOptions.hpp"
#include "app/HttpOptions.hpp"
#include "app/SourceOptions.hpp"
#include "auth/AuthOptions.hpp"
#include "common/ConfigTree.hpp"
#include "devmode/DevOptions.hpp"
#include "ingest/IngestOptions.hpp"
#include "items/ItemsOptions.hpp"
#include "metrics/MetricsOptions.hpp"
#include "portfolio/PortfolioOptions.hpp"
#include "quality/QualityOptions.hpp"
#include "rates/RatesOptions.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace skinpulse::app {

/// A metric plugin instance: one of the built-in five, or a `[metric.NAME]` section.
struct MetricOptions {
  std::string name;                         ///< for messages and /readyz
  std::string plugin;                       ///< plugin name, file <plugin dir>/metric_<plugin>.so
  std::map<std::string, std::string> keys;  ///< plugin-specific keys
  /// One of builtInMetricPlugins(): a missing file is logged, not fatal (a daemon with a
  /// stripped plugin directory still serves; its volatility objects lack those fields).
  bool built_in = false;
};

/// The metric plugins every daemon runs: their fields are the Volatility metrics object of
/// the interface, so they cannot be disabled (docs/api.md §3.2).
const std::vector<std::string>& builtInMetricPlugins();

/// An identity provider enabled by its environment variables.
struct IdentityOptions {
  std::string name;    ///< idp-a, idp-b, gameid
  std::string plugin;  ///< oauth2, openid2
  std::map<std::string, std::string> keys;
};

struct Settings {
  // [daemon]
  std::string base_url = "http://127.0.0.1:8080";
  std::string listen_host = "127.0.0.1";  ///< [daemon] listen (the server binds it: http)
  std::uint16_t listen_port = 8080;
  std::string frontend_url;
  std::string plugin_dir;
  std::string share_dir;
  /// [http] (docs/api.md §11, docs/adr/0010-front-door.md), with [daemon] listen and
  /// [log] access: the public server's options (app/ServerModule.hpp).
  HttpOptions http;
  /// [admin] (docs/operations.md, "Admin listener"; app/AdminModule.hpp).
  AdminOptions admin;
  // [log]
  std::string log_level = "info";
  bool log_json = false;
  bool dashboard_enabled = true;  ///< [dashboard] enabled: serve share/www (docs/api.md)
  // [storage]
  std::string database_url;
  std::string redis_url;
  // [catalog]
  std::string catalog_file;

  // The features' keys.
  auth::AuthOptions auth;                   ///< [session], [auth], [http] trusted_proxies
  ingest::IngestOptions ingest;             ///< [storage] retention_days, [catalog] auto_add
  items::ItemsOptions items;                ///< [items]
  metrics::MetricsOptions metrics_options;  ///< [metrics]
  portfolio::PortfolioOptions portfolio;    ///< [portfolio]
  quality::QualityOptions quality;          ///< [quality]
  alerts::AlertsOptions alerts;             ///< [alerts]
  access::AccessOptions api;                ///< [api]

  std::vector<SourceOptions> sources;  ///< in configuration order
  /// `[rates.NAME]` sections, enabled or not, in configuration order (docs/api.md §14).
  std::vector<rates::RatesOptions> rates;
  std::vector<IdentityOptions> identity_providers;
  devmode::DevOptions dev;  ///< [dev]: development mode (etc/dev only)
  /// The built-in metrics, then the enabled `[metric.NAME]` sections in configuration order.
  std::vector<MetricOptions> metrics;

  /// Names of enabled source instances, in configuration order.
  std::vector<std::string> enabledSourceNames() const;
};

/// Where the daemon runs from: decides the built-in defaults of paths and DATABASE_URL.
struct RunLocation {
  bool build_tree = false;       ///< the binary sits in the build tree
  std::string config_dir;        ///< directory of the main config file ("" without one)
  bool secret_optional = false;  ///< admin commands that never sign cookies run without it
};

/// Layers the environment over `tree` (docs/api.md §1.2), then validates and types every
/// value. Throws ConfigError naming the key and the problem.
Settings buildSettings(common::ConfigTree& tree, const RunLocation& location,
                       const std::map<std::string, std::string>& environment);

/// The process environment as a map.
std::map<std::string, std::string> processEnvironment();

}  // namespace skinpulse::app
