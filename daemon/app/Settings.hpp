#pragma once

// Settings: the validated configuration of one daemon, built from a ConfigTree. Every
// value the daemon uses is here, typed and checked once at start; nothing else reads
// the raw tree.

#include "skinpulse/sdk/types.hpp"

#include "alerts/AlertsOptions.hpp"
#include "auth/AuthOptions.hpp"
#include "common/ConfigTree.hpp"
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

namespace skinpulse {

/// `[source.NAME]`: one market-source plugin instance.
struct SourceOptions {
  std::string name;    ///< instance name: the `source` of its price points
  std::string plugin;  ///< plugin name, file <plugin dir>/source_<plugin>.so
  bool enabled = false;
  int interval_seconds = 60;
  int timeout_seconds = 30;
  /// The `kind` key (ask, bid, sale, reference; default ask): the kind of the instance's
  /// prices that do not state their own. Set by PluginSet, which knows whether the plugin
  /// leaves the key to the daemon (plugin/ReservedKeys.hpp); `keys` keeps the text.
  sdk::PriceKind kind = sdk::PriceKind::kAsk;
  /// The `fee_percent` key (0..100, default 0): what a sale there costs, for the net
  /// spread of GET /api/v1/rankings/spread (docs/api.md §12). The daemon's, never passed
  /// to the plugin.
  double fee_percent = 0.0;
  /// The `fresh_seconds` key (60..2592000; 0 = unset: 3 × interval_seconds): how long a
  /// price of this instance stays fresh (docs/api.md §12). For sources that revisit an
  /// item far less often than they poll (dmarket's cursor, steam_market's rotation).
  int fresh_seconds = 0;
  std::map<std::string, std::string> keys;  ///< plugin-specific keys, passed to the plugin
};

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
  std::string listen_host = "127.0.0.1";
  std::uint16_t listen_port = 8080;
  std::string frontend_url;
  std::string plugin_dir;
  std::string share_dir;
  // [http] (docs/api.md §11, docs/adr/0010-front-door.md)
  // Deprecated and ignored; kept bound so a value is still checked (a typo in an old
  // file fails as before) and reported by the start-up warning.
  int http_threads = 64;
  int http_queue = 1024;
  /// Deprecated keys the configuration sets ("[http] threads"): logged at start.
  std::vector<std::string> deprecated_keys;
  int event_threads = 0;
  int worker_threads = 8;
  int worker_queue = 1024;
  int max_connections = 10000;
  int max_connections_per_ip = 256;
  int max_request_line_bytes = 8192;
  int max_header_bytes = 16384;
  int max_body_bytes = 65536;
  int head_timeout_seconds = 10;
  int body_timeout_seconds = 30;
  int keep_alive_timeout_seconds = 60;
  int write_timeout_seconds = 30;
  int max_keep_alive_requests = 10000;
  // [admin] (docs/operations.md, "Admin listener")
  bool admin_enabled = true;  ///< false: [admin] listen is empty
  std::string admin_host = "127.0.0.1";
  std::uint16_t admin_port = 9108;
  bool admin_allow_remote = false;
  // [log]
  std::string log_level = "info";
  bool log_json = false;
  bool access_log = true;
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

  std::vector<SourceOptions> sources;  ///< in configuration order
  /// `[rates.NAME]` sections, enabled or not, in configuration order (docs/api.md §14).
  std::vector<rates::RatesOptions> rates;
  std::vector<IdentityOptions> identity_providers;
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
Settings buildSettings(ConfigTree& tree, const RunLocation& location,
                       const std::map<std::string, std::string>& environment);

/// The process environment as a map.
std::map<std::string, std::string> processEnvironment();

}  // namespace skinpulse
