#include "app/ConfigSchema.hpp"

#include "app/ModuleTable.hpp"

#include <algorithm>
#include <sstream>

namespace skinpulse::app {

const common::OptionTable<Settings>& daemonOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<Settings> table = {
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
      {{"log.level", T::kText, 0, 0, "SKINPULSE_LOG_LEVEL", "info",
        "trace, debug, info, warn, error or off."}},
      {{"log.format", T::kText, 0, 0, nullptr, "text",
        "text, or json for one JSON object per line."}},
      {{"log.access", T::kBoolean, 0, 0, nullptr, "true",
        "One line per HTTP request: method, path (never the query), status, duration, "
        "client."}},
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
  // app/'s own keys, then each module's, in the module table's order.
  static const std::vector<OptionGroup> groups = [] {
    std::vector<OptionGroup> all = {{"Daemon, logging, storage, catalogue, identity providers",
                                     "daemon/app/ConfigSchema.cpp",
                                     common::specsOf(daemonOptionTable())}};
    for (const auto& entry : moduleTable()) {
      if (entry.options == nullptr) continue;
      for (auto& group : entry.options()) all.push_back(std::move(group));
    }
    return all;
  }();
  return groups;
}

const std::vector<common::OptionSpec>& daemonConfigKeys() {
  static const std::vector<common::OptionSpec> keys = [] {
    std::vector<common::OptionSpec> all;
    for (const auto& group : optionGroups()) {
      if (group.per_instance) continue;  // [source.NAME]: read section by section
      all.insert(all.end(), group.specs.begin(), group.specs.end());
    }
    return all;
  }();
  return keys;
}

bool isDaemonSection(const std::string& section) {
  static const char* const kSections[] = {"daemon",  "http",  "log",      "storage",   "session",
                                          "catalog", "items", "metrics",  "portfolio", "alerts",
                                          "gameid",  "auth",  "identity", "dashboard", "quality",
                                          "admin",   "api",   "dev"};
  return std::any_of(std::begin(kSections), std::end(kSections),
                     [&](const char* s) { return section == s; });
}

namespace {

const char* typeName(common::OptionType type) {
  switch (type) {
    case common::OptionType::kText:
      return "text";
    case common::OptionType::kUrl:
      return "URL";
    case common::OptionType::kInteger:
      return "integer";
    case common::OptionType::kBoolean:
      return "boolean";
    case common::OptionType::kList:
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
         "metric plugins (`[metric.NAME]`) and currency rates (`[rates.NAME]`, see "
         "[api.md §14](api.md#14-currencies)) take, besides the daemon's keys listed below, "
         "their plugins' keys: see [plugin-guide.md](plugin-guide.md) and each plugin's "
         "README. The sections follow the module table (daemon/app/ModuleTable.cpp).\n";
  for (const auto& group : optionGroups()) {
    out << "\n## " << group.title << "\n\n"
        << "Table: `" << group.folder << "`.\n\n"
        << "| Key | Environment | Type | Default | Description |\n"
        << "|---|---|---|---|---|\n";
    for (const auto& spec : group.specs) {
      // "section.key", or "source.NAME.key" for an instance section.
      const std::string key = spec.key;
      const auto dot = key.rfind('.');
      std::string type = typeName(spec.type);
      if (spec.type == common::OptionType::kInteger) {
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

}  // namespace skinpulse::app
