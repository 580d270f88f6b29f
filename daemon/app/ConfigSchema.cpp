#include "app/ConfigSchema.hpp"

#include <algorithm>

namespace skinpulse {

const std::vector<ConfigKeySpec>& daemonConfigKeys() {
  static const std::vector<ConfigKeySpec> keys = {
      {"daemon.base_url", "BASE_URL", "http://127.0.0.1:8080"},
      {"daemon.listen", "LISTEN", "127.0.0.1:8080"},
      {"daemon.frontend_url", "FRONTEND_URL", nullptr},
      {"daemon.conf_d", nullptr, "conf.d"},
      {"daemon.plugin_dir", "SKINPULSE_PLUGIN_DIR", nullptr},
      {"daemon.share_dir", "SKINPULSE_SHARE_DIR", nullptr},
      {"http.threads", nullptr, "64"},
      {"http.queue", nullptr, "1024"},
      {"http.keep_alive_timeout_seconds", nullptr, "5"},
      {"http.max_keep_alive_requests", nullptr, "10000"},
      {"http.trusted_proxies", "TRUSTED_PROXIES", ""},
      {"log.level", "SKINPULSE_LOG_LEVEL", "info"},
      {"log.format", nullptr, "text"},
      {"log.access", nullptr, "true"},
      {"storage.database_url", "DATABASE_URL", nullptr},
      {"storage.redis_url", "REDIS_URL", ""},
      {"storage.retention_days", nullptr, "30"},
      {"session.secret", "SESSION_SECRET", nullptr},
      {"session.lifetime_hours", "SESSION_LIFETIME_HOURS", "72"},
      {"session.cookie_secure", "SESSION_COOKIE_SECURE", nullptr},
      {"catalog.file", nullptr, nullptr},
      {"catalog.auto_add", nullptr, "false"},
      {"metrics.reference_sources", nullptr, ""},
      {"dashboard.enabled", nullptr, "true"},
      {"portfolio.import_cooldown_seconds", "IMPORT_COOLDOWN_SECONDS", "600"},
      {"portfolio.inventory_max_bytes", "INVENTORY_MAX_BYTES", "8388608"},
      {"portfolio.inventory_url", "GAMEID_INVENTORY_URL", "https://steamcommunity.com/inventory"},
      {"portfolio.inventory_timeout_seconds", nullptr, "20"},
      {"auth.rate_limit_per_minute", "AUTH_RATE_LIMIT_PER_MINUTE", "20"},
      // The plugin serving each provider; tests point them at test plugins.
      {"identity.idpa_plugin", nullptr, "oauth2"},
      {"identity.idpb_plugin", nullptr, "oauth2"},
      {"identity.gameid_plugin", nullptr, "openid2"},
      {"identity.idpa_client_id", "IDPA_CLIENT_ID", ""},
      {"identity.idpa_client_secret", "IDPA_CLIENT_SECRET", ""},
      {"identity.idpa_auth_url", "IDPA_AUTH_URL", "https://accounts.google.com/o/oauth2/v2/auth"},
      {"identity.idpa_token_url", "IDPA_TOKEN_URL", "https://oauth2.googleapis.com/token"},
      {"identity.idpa_userinfo_url", "IDPA_USERINFO_URL",
       "https://openidconnect.googleapis.com/v1/userinfo"},
      {"identity.idpb_client_id", "IDPB_CLIENT_ID", ""},
      {"identity.idpb_client_secret", "IDPB_CLIENT_SECRET", ""},
      {"identity.idpb_auth_url", "IDPB_AUTH_URL", "https://github.com/login/oauth/authorize"},
      {"identity.idpb_token_url", "IDPB_TOKEN_URL", "https://github.com/login/oauth/access_token"},
      {"identity.idpb_api_url", "IDPB_API_URL", "https://api.github.com"},
      {"identity.gameid_openid_enabled", "GAMEID_OPENID_ENABLED", "false"},
      {"identity.gameid_api_key", "GAMEID_API_KEY", ""},
      {"identity.gameid_openid_url", "GAMEID_OPENID_URL",
       "https://steamcommunity.com/openid/login"},
      {"identity.gameid_host", "GAMEID_HOST", "steamcommunity.com"},
      {"identity.gameid_api_url", "GAMEID_API_URL", "https://api.steampowered.com"},
  };
  return keys;
}

bool isDaemonSection(const std::string& section) {
  static const char* const kSections[] = {"daemon",  "http",     "log",      "storage",
                                          "session", "catalog",  "metrics",  "portfolio",
                                          "auth",    "identity", "dashboard"};
  return std::any_of(std::begin(kSections), std::end(kSections),
                     [&](const char* s) { return section == s; });
}

}  // namespace skinpulse
