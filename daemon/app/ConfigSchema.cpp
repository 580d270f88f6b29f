#include "app/ConfigSchema.hpp"

#include <algorithm>
#include <sstream>

namespace skinpulse {

const OptionTable<Settings>& daemonOptionTable() {
  using T = OptionType;
  static const OptionTable<Settings> table = {
      {{"daemon.base_url", T::kUrl, 0, 0, "BASE_URL", "http://127.0.0.1:8080",
        "Public base address; derives the OAuth and OpenID callback URLs, the OpenID realm and "
        "the cookie's Secure flag."}},
      {{"daemon.listen", T::kText, 0, 0, "LISTEN", "127.0.0.1:8080",
        "HOST:PORT (or [v6]:PORT) to bind; port 0 picks a free port."}},
      {{"daemon.frontend_url", T::kUrl, 0, 0, "FRONTEND_URL", nullptr,
        "Where the browser goes after a sign-in or link.", "base_url + \"/\""}},
      {{"daemon.conf_d", T::kText, 0, 0, nullptr, "conf.d",
        "Drop-in directory (every *.ini in it, in lexical order), relative to the main "
        "file's directory."}},
      {{"daemon.plugin_dir", T::kText, 0, 0, "SKINPULSE_PLUGIN_DIR", nullptr, "Plugin directory.",
        "/usr/lib/skinpulse/plugins; in a build tree build/lib/skinpulse/plugins"}},
      {{"daemon.share_dir", T::kText, 0, 0, "SKINPULSE_SHARE_DIR", nullptr,
        "Read-only data: SQL migrations and the catalogue.",
        "/usr/share/skinpulse; in a build tree the source tree's share/"}},
      {{"http.event_threads", T::kInteger, 0, 256, nullptr, "0",
        "Event-loop threads that own the connections (docs/adr/0010-front-door.md); 0: one "
        "per core. A connection costs memory, not a thread."},
       &Settings::event_threads},
      {{"http.worker_threads", T::kInteger, 1, 1024, nullptr, "8",
        "Threads for the handlers that may block (database, session store, upstream calls)."},
       &Settings::worker_threads},
      {{"http.worker_queue", T::kInteger, 1, 1000000, nullptr, "1024",
        "Requests waiting for a worker thread; when full, 503 overloaded with Retry-After."},
       &Settings::worker_queue},
      {{"http.max_connections", T::kInteger, 1, 1000000, nullptr, "10000",
        "Open connections, WebSocket ones included; more: 503 too_many_connections, then "
        "close."},
       &Settings::max_connections},
      {{"http.max_connections_per_ip", T::kInteger, 1, 1000000, nullptr, "256",
        "Open connections from one client address, WebSocket ones included; more: 503 "
        "too_many_connections, then close."},
       &Settings::max_connections_per_ip},
      {{"http.max_request_line_bytes", T::kInteger, 256, 1048576, nullptr, "8192",
        "Longest request line; longer: 414."},
       &Settings::max_request_line_bytes},
      {{"http.max_header_bytes", T::kInteger, 1024, 1048576, nullptr, "16384",
        "Largest header section; larger: 431."},
       &Settings::max_header_bytes},
      {{"http.max_body_bytes", T::kInteger, 1024, 16777216, nullptr, "65536",
        "Largest request body; larger: 413 payload_too_large, then close."},
       &Settings::max_body_bytes},
      {{"http.head_timeout_seconds", T::kInteger, 1, 3600, nullptr, "10",
        "The whole request head must arrive within this many seconds of its first byte; "
        "else 408 and close."},
       &Settings::head_timeout_seconds},
      {{"http.body_timeout_seconds", T::kInteger, 1, 3600, nullptr, "30",
        "The whole request body must arrive within this many seconds of the head; else 408 "
        "and close."},
       &Settings::body_timeout_seconds},
      {{"http.keep_alive_timeout_seconds", T::kInteger, 1, 3600, nullptr, "60",
        "Idle keep-alive connections are closed after this many seconds."},
       &Settings::keep_alive_timeout_seconds},
      {{"http.write_timeout_seconds", T::kInteger, 1, 3600, nullptr, "30",
        "A response the client does not read within this many seconds is abandoned (the "
        "connection closes)."},
       &Settings::write_timeout_seconds},
      {{"http.threads", T::kInteger, 2, 4096, nullptr, "64",
        "Deprecated and ignored since the event-driven server (docs/adr/0010-front-door.md); "
        "see worker_threads."},
       &Settings::http_threads},
      {{"http.queue", T::kInteger, 1, 1000000, nullptr, "1024",
        "Deprecated and ignored; see worker_queue."},
       &Settings::http_queue},
      {{"http.max_keep_alive_requests", T::kInteger, 1, 10000000, nullptr, "10000",
        "Requests served on one connection before it is closed."},
       &Settings::max_keep_alive_requests},
      {{"admin.listen", T::kText, 0, 0, "ADMIN_LISTEN", "127.0.0.1:9108",
        "HOST:PORT of the admin listener (GET /metrics in the Prometheus text format, GET "
        "/readyz with every detail; docs/operations.md); empty disables it. Only a loopback "
        "address unless allow_remote is true."}},
      {{"admin.allow_remote", T::kBoolean, 0, 0, nullptr, "false",
        "Let the admin listener bind a non-loopback address. It has no authentication: "
        "firewall it to the Prometheus host."},
       &Settings::admin_allow_remote},
      {{"log.level", T::kText, 0, 0, "SKINPULSE_LOG_LEVEL", "info",
        "trace, debug, info, warn, error or off."}},
      {{"log.format", T::kText, 0, 0, nullptr, "text",
        "text, or json for one JSON object per line."}},
      {{"log.access", T::kBoolean, 0, 0, nullptr, "true",
        "One line per HTTP request: method, path (never the query), status, duration, "
        "client."},
       &Settings::access_log},
      {{"dashboard.enabled", T::kBoolean, 0, 0, nullptr, "true",
        "Serve the web dashboard (share/www) at /, /items/<id>, /rankings, /portfolio, /status "
        "and its files under /assets/; false leaves only the API."},
       &Settings::dashboard_enabled},
      {{"storage.database_url", T::kText, 0, 0, "DATABASE_URL", nullptr,
        "sqlite://PATH or postgresql://user:pass@host:port/db.",
        "sqlite:///var/lib/skinpulse/skinpulse.db; in a build tree sqlite://./var/skinpulse.db"}},
      {{"storage.redis_url", T::kText, 0, 0, "REDIS_URL", "",
        "Empty: sessions, cooldowns, rate limits and live updates stay in this instance (the "
        "database). redis://[[user]:password@]host:port/db shares them between instances."}},
      {{"catalog.file", T::kText, 0, 0, nullptr, nullptr,
        "The catalogue seeded at start (JSON Lines).", "catalog/items.jsonl under share_dir"}},
      // The plugin serving each provider; tests point them at test plugins.
      {{"identity.idpa_plugin", T::kText, 0, 0, nullptr, "oauth2",
        "The plugin serving idp-a; leave it alone."}},
      {{"identity.idpb_plugin", T::kText, 0, 0, nullptr, "oauth2",
        "The plugin serving idp-b; leave it alone."}},
      {{"identity.gameid_plugin", T::kText, 0, 0, nullptr, "openid2",
        "The plugin serving gameid; leave it alone."}},
      {{"identity.idpa_client_id", T::kText, 0, 0, "IDPA_CLIENT_ID", "",
        "idp-a OAuth client id; idp-a is enabled when it and the secret are set."}},
      {{"identity.idpa_client_secret", T::kText, 0, 0, "IDPA_CLIENT_SECRET", "",
        "idp-a OAuth client secret."}},
      {{"identity.idpa_auth_url", T::kText, 0, 0, "IDPA_AUTH_URL",
        "https://accounts.google.com/o/oauth2/v2/auth", "idp-a authorization endpoint."}},
      {{"identity.idpa_token_url", T::kText, 0, 0, "IDPA_TOKEN_URL",
        "https://oauth2.googleapis.com/token", "idp-a token endpoint."}},
      {{"identity.idpa_userinfo_url", T::kText, 0, 0, "IDPA_USERINFO_URL",
        "https://openidconnect.googleapis.com/v1/userinfo", "idp-a userinfo endpoint."}},
      {{"identity.idpb_client_id", T::kText, 0, 0, "IDPB_CLIENT_ID", "",
        "idp-b OAuth client id; idp-b is enabled when it and the secret are set."}},
      {{"identity.idpb_client_secret", T::kText, 0, 0, "IDPB_CLIENT_SECRET", "",
        "idp-b OAuth client secret."}},
      {{"identity.idpb_auth_url", T::kText, 0, 0, "IDPB_AUTH_URL",
        "https://github.com/login/oauth/authorize", "idp-b authorization endpoint."}},
      {{"identity.idpb_token_url", T::kText, 0, 0, "IDPB_TOKEN_URL",
        "https://github.com/login/oauth/access_token", "idp-b token endpoint."}},
      {{"identity.idpb_api_url", T::kText, 0, 0, "IDPB_API_URL", "https://api.github.com",
        "idp-b API base (/user and /user/emails)."}},
      {{"identity.gameid_openid_enabled", T::kBoolean, 0, 0, "GAMEID_OPENID_ENABLED", "false",
        "Enables gameid (OpenID 2.0) sign-in and linking."}},
      {{"identity.gameid_api_key", T::kText, 0, 0, "GAMEID_API_KEY", "",
        "The game platform's Web API key, for profile names and avatars; optional."}},
      {{"identity.gameid_openid_url", T::kText, 0, 0, "GAMEID_OPENID_URL",
        "https://steamcommunity.com/openid/login", "The OpenID 2.0 provider endpoint."}},
      {{"identity.gameid_host", T::kText, 0, 0, "GAMEID_HOST", "steamcommunity.com",
        "The host of accepted claimed IDs."}},
      {{"identity.gameid_api_url", T::kText, 0, 0, "GAMEID_API_URL", "https://api.steampowered.com",
        "The game platform's Web API base."}},
  };
  return table;
}

const std::vector<OptionGroup>& optionGroups() {
  static const std::vector<OptionGroup> groups = {
      {"Daemon, HTTP server, admin listener, logging, storage, catalogue, identity providers",
       "daemon/app/ConfigSchema.cpp", specsOf(daemonOptionTable())},
      {"Authentication and sessions", "daemon/auth/AuthOptions.cpp",
       specsOf(auth::authOptionTable())},
      {"Ingestion", "daemon/ingest/IngestOptions.cpp", specsOf(ingest::ingestOptionTable())},
      {"Items", "daemon/items/ItemsOptions.cpp", specsOf(items::itemsOptionTable())},
      {"Metrics", "daemon/metrics/MetricsOptions.cpp", specsOf(metrics::metricsOptionTable())},
      {"Portfolio", "daemon/portfolio/PortfolioOptions.cpp",
       specsOf(portfolio::portfolioOptionTable())},
      {"Cross-market quality", "daemon/quality/QualityOptions.cpp",
       specsOf(quality::qualityOptionTable())},
      {"Alerts", "daemon/alerts/AlertsOptions.cpp", specsOf(alerts::alertsOptionTable())},
  };
  return groups;
}

const std::vector<OptionSpec>& daemonConfigKeys() {
  static const std::vector<OptionSpec> keys = [] {
    std::vector<OptionSpec> all;
    for (const auto& group : optionGroups()) {
      all.insert(all.end(), group.specs.begin(), group.specs.end());
    }
    return all;
  }();
  return keys;
}

bool isDaemonSection(const std::string& section) {
  static const char* const kSections[] = {
      "daemon",    "http",   "log",    "storage", "session",  "catalog",   "items",   "metrics",
      "portfolio", "alerts", "gameid", "auth",    "identity", "dashboard", "quality", "admin"};
  return std::any_of(std::begin(kSections), std::end(kSections),
                     [&](const char* s) { return section == s; });
}

namespace {

const char* typeName(OptionType type) {
  switch (type) {
    case OptionType::kText:
      return "text";
    case OptionType::kUrl:
      return "URL";
    case OptionType::kInteger:
      return "integer";
    case OptionType::kBoolean:
      return "boolean";
    case OptionType::kList:
      return "list";
  }
  return "text";
}

// A table cell: pipes escaped, never empty.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string code(const std::string& text) { return "`" + text + "`"; }

}  // namespace

std::string renderConfigReference() {
  std::ostringstream out;
  out << "# Configuration reference\n\n"
      << "<!-- Generated by `skinpulsed --print-config-reference` from the option tables; do "
         "not edit. The `configuration_reference` test fails when this file is stale. -->\n\n"
      << "Every key of the daemon's own sections. Precedence, lowest to highest: the default "
         "below, the main file (`--config`), the drop-ins of `[daemon] conf_d` in lexical "
         "order, then the environment variable. Unknown sections and keys are errors; "
         "`skinpulsed --check-config` lists every problem. Market sources (`[source.NAME]`), "
         "metric plugins (`[metric.NAME]`) and currency rates (`[rates.NAME]`: `plugin`, "
         "`enabled`, `interval_seconds` 1..604800 default 21600, `timeout_seconds`, see "
         "[api.md §14](api.md#14-currencies)) take their plugins' keys: see "
         "[plugin-guide.md](plugin-guide.md) and each plugin's README.\n";
  for (const auto& group : optionGroups()) {
    out << "\n## " << group.title << "\n\n"
        << "Table: `" << group.folder << "`.\n\n"
        << "| Key | Environment | Type | Default | Description |\n"
        << "|---|---|---|---|---|\n";
    for (const auto& spec : group.specs) {
      const std::string key = spec.key;
      const auto dot = key.find('.');
      std::string type = typeName(spec.type);
      if (spec.type == OptionType::kInteger) {
        type += " " + std::to_string(spec.min) + "..";
        type += std::to_string(spec.max);
      }
      std::string fallback;
      if (spec.fallback != nullptr) {
        fallback = *spec.fallback == '\0' ? "empty" : code(spec.fallback);
      } else {
        fallback = spec.derived != nullptr ? spec.derived : "none";
      }
      out << "| " << code("[" + key.substr(0, dot) + "] " + key.substr(dot + 1)) << " | "
          << (spec.env != nullptr ? code(spec.env) : std::string("–")) << " | " << type << " | "
          << cell(fallback) << " | " << cell(spec.description) << " |\n";
    }
  }
  return out.str();
}

}  // namespace skinpulse
