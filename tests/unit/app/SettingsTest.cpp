#include "app/Settings.hpp"
#include "common/ConfigError.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

const std::string kSecret(32, 's');

app::Settings build(const std::string& ini, std::map<std::string, std::string> env,
                    bool buildTree = true) {
  common::ConfigTree tree;
  tree.loadIniText(ini, "test.ini");
  if (!env.count("SESSION_SECRET")) env["SESSION_SECRET"] = kSecret;
  return app::buildSettings(tree, app::RunLocation{buildTree, ""}, env);
}

std::string errorKey(const std::string& ini, std::map<std::string, std::string> env) {
  try {
    build(ini, std::move(env));
  } catch (const common::ConfigError& error) {
    return error.what();
  }
  return "(accepted)";
}

}  // namespace

class SettingsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SettingsTest);
  CPPUNIT_TEST(defaultsFollowTheContract);
  CPPUNIT_TEST(environmentOverridesFiles);
  CPPUNIT_TEST(secretIsRequiredAndLongEnough);
  CPPUNIT_TEST(cookieSecureDerivesFromBaseUrl);
  CPPUNIT_TEST(malformedValuesNameTheirKey);
  CPPUNIT_TEST(unknownSectionsAndKeysAreRefused);
  CPPUNIT_TEST(sourcesKeepConfigurationOrder);
  CPPUNIT_TEST(identityProvidersNeedBothCredentials);
  CPPUNIT_TEST_SUITE_END();

 public:
  void defaultsFollowTheContract() {
    const app::Settings s = build("", {});
    CPPUNIT_ASSERT_EQUAL(std::string("http://127.0.0.1:8080"), s.base_url);
    CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1"), s.listen_host);
    CPPUNIT_ASSERT_EQUAL(8080, static_cast<int>(s.listen_port));
    CPPUNIT_ASSERT_EQUAL(std::string("sqlite://./var/skinpulse.db"), s.database_url);
    CPPUNIT_ASSERT_EQUAL(std::string("http://127.0.0.1:8080/"), s.frontend_url);
    CPPUNIT_ASSERT_EQUAL(72, s.auth.session_lifetime_hours);
    CPPUNIT_ASSERT_EQUAL(600, s.portfolio.import_cooldown_seconds);
    CPPUNIT_ASSERT_EQUAL(INT64_C(8388608), s.portfolio.inventory_max_bytes);
    CPPUNIT_ASSERT_EQUAL(20, s.auth.rate_limit_per_minute);
    CPPUNIT_ASSERT_EQUAL(INT64_C(67108864), s.items.history_cache_bytes);
    CPPUNIT_ASSERT_EQUAL(INT64_C(60), s.items.history_cache_ttl_seconds);
    CPPUNIT_ASSERT(s.redis_url.empty());
    CPPUNIT_ASSERT(s.sources.empty());
    CPPUNIT_ASSERT(s.identity_providers.empty());
    const app::Settings installed = build("", {}, false);
    CPPUNIT_ASSERT_EQUAL(std::string("sqlite:///var/lib/skinpulse/skinpulse.db"),
                         installed.database_url);
  }

  void environmentOverridesFiles() {
    const app::Settings s =
        build("[daemon]\nlisten = 127.0.0.1:9000\n[auth]\nrate_limit_per_minute = 5\n",
              {{"LISTEN", "0.0.0.0:0"}, {"IMPORT_COOLDOWN_SECONDS", "30"}});
    CPPUNIT_ASSERT_EQUAL(std::string("0.0.0.0"), s.listen_host);
    CPPUNIT_ASSERT_EQUAL(0, static_cast<int>(s.listen_port));
    CPPUNIT_ASSERT_EQUAL(5, s.auth.rate_limit_per_minute);
    CPPUNIT_ASSERT_EQUAL(30, s.portfolio.import_cooldown_seconds);
    const app::Settings items =
        build("[items]\nhistory_cache_bytes = 0\nhistory_cache_ttl_seconds = 5\n", {});
    CPPUNIT_ASSERT_EQUAL(INT64_C(0), items.items.history_cache_bytes);
    CPPUNIT_ASSERT_EQUAL(INT64_C(5), items.items.history_cache_ttl_seconds);
  }

  void secretIsRequiredAndLongEnough() {
    common::ConfigTree tree;
    CPPUNIT_ASSERT_THROW_MESSAGE("missing secret accepted",
                                 app::buildSettings(tree, app::RunLocation{true, ""}, {}),
                                 common::ConfigError);
    const std::string missing = errorKey("", {{"SESSION_SECRET", ""}});
    CPPUNIT_ASSERT(missing.find("SESSION_SECRET") != std::string::npos);
    const std::string shortOne = errorKey("", {{"SESSION_SECRET", std::string(31, 'x')}});
    CPPUNIT_ASSERT(shortOne.find("SESSION_SECRET") != std::string::npos);
    CPPUNIT_ASSERT(shortOne.find("32") != std::string::npos);
    // Admin commands may run without a secret, never with a short one.
    app::RunLocation admin{true, "", true};
    common::ConfigTree noSecret;
    CPPUNIT_ASSERT(app::buildSettings(noSecret, admin, {}).auth.session_secret.empty());
    common::ConfigTree shortSecret;
    CPPUNIT_ASSERT_THROW(app::buildSettings(shortSecret, admin, {{"SESSION_SECRET", "short"}}),
                         common::ConfigError);
    CPPUNIT_ASSERT_EQUAL(std::string(32, 'y'),
                         build("", {{"SESSION_SECRET", std::string(32, 'y')}}).auth.session_secret);
  }

  void cookieSecureDerivesFromBaseUrl() {
    CPPUNIT_ASSERT(!build("", {}).auth.cookie_secure);
    CPPUNIT_ASSERT(build("", {{"BASE_URL", "https://skins.example.org/"}}).auth.cookie_secure);
    CPPUNIT_ASSERT_EQUAL(std::string("https://skins.example.org"),
                         build("", {{"BASE_URL", "https://skins.example.org/"}}).base_url);
    CPPUNIT_ASSERT(!build("", {{"BASE_URL", "https://x.org"}, {"SESSION_COOKIE_SECURE", "false"}})
                        .auth.cookie_secure);
    CPPUNIT_ASSERT(build("", {{"SESSION_COOKIE_SECURE", "true"}}).auth.cookie_secure);
  }

  void malformedValuesNameTheirKey() {
    CPPUNIT_ASSERT(errorKey("", {{"LISTEN", "nope"}}).find("LISTEN") == 0);
    CPPUNIT_ASSERT(errorKey("", {{"LISTEN", "127.0.0.1:70000"}}).find("LISTEN") == 0);
    CPPUNIT_ASSERT(errorKey("", {{"DATABASE_URL", "mysql://x/y"}}).find("DATABASE_URL") == 0);
    CPPUNIT_ASSERT(errorKey("", {{"SESSION_LIFETIME_HOURS", "0"}}).find("SESSION_LIFETIME_HOURS") ==
                   0);
    CPPUNIT_ASSERT(errorKey("", {{"TRUSTED_PROXIES", "10.0.0.0/40"}}).find("TRUSTED_PROXIES") == 0);
    CPPUNIT_ASSERT(errorKey("[http]\nthreads = lots\n", {}).find("[http] threads (test.ini:2)") ==
                   0);
    CPPUNIT_ASSERT(errorKey("[storage]\nretention_days = 3\n", {}).find("retention_days") !=
                   std::string::npos);
    CPPUNIT_ASSERT(
        errorKey("[items]\nhistory_cache_bytes = -1\n", {}).find("[items] history_cache_bytes") ==
        0);
    CPPUNIT_ASSERT(errorKey("[items]\nhistory_cache_ttl_seconds = 0\n", {})
                       .find("[items] history_cache_ttl_seconds") == 0);
    CPPUNIT_ASSERT(errorKey("[items]\nhistory_cache = 1\n", {}).find("[items] history_cache") == 0);
  }

  void unknownSectionsAndKeysAreRefused() {
    CPPUNIT_ASSERT(errorKey("[deamon]\nlisten = 1\n", {}).find("[deamon]") == 0);
    CPPUNIT_ASSERT(errorKey("[daemon]\nlistne = 1\n", {}).find("[daemon] listne") == 0);
    CPPUNIT_ASSERT(errorKey("[source.x]\nenabled = true\n", {}).find("[source.x] plugin") == 0);
    CPPUNIT_ASSERT(errorKey("[source.Bad Name]\nplugin = a\n", {}) != "(accepted)");
  }

  void sourcesKeepConfigurationOrder() {
    const app::Settings s = build(
        "[source.steam]\nplugin = steam_market\nitems = A, B\n"
        "[source.sim]\nplugin = simulated\nenabled = false\ninterval_seconds = 5\n"
        "[source.port]\nplugin = skinport\ntimeout_seconds = 10\n",
        {});
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), s.sources.size());
    CPPUNIT_ASSERT_EQUAL(std::string("steam"), s.sources[0].name);
    CPPUNIT_ASSERT_EQUAL(std::string("A, B"), s.sources[0].keys.at("items"));
    CPPUNIT_ASSERT(!s.sources[0].keys.count("plugin"));
    CPPUNIT_ASSERT(!s.sources[1].enabled);
    CPPUNIT_ASSERT_EQUAL(5, s.sources[1].interval_seconds);
    CPPUNIT_ASSERT_EQUAL(10, s.sources[2].timeout_seconds);
    const std::vector<std::string> enabled = {"steam", "port"};
    CPPUNIT_ASSERT(enabled == s.enabledSourceNames());
  }

  void identityProvidersNeedBothCredentials() {
    CPPUNIT_ASSERT(build("", {{"IDPA_CLIENT_ID", "id"}}).identity_providers.empty());
    const app::Settings s = build("", {{"IDPA_CLIENT_ID", "id"},
                                       {"IDPA_CLIENT_SECRET", "secret"},
                                       {"IDPA_TOKEN_URL", "http://127.0.0.1:1/token"},
                                       {"GAMEID_OPENID_ENABLED", "true"}});
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), s.identity_providers.size());
    CPPUNIT_ASSERT_EQUAL(std::string("idp-a"), s.identity_providers[0].name);
    CPPUNIT_ASSERT_EQUAL(std::string("oauth2"), s.identity_providers[0].plugin);
    CPPUNIT_ASSERT_EQUAL(std::string("http://127.0.0.1:1/token"),
                         s.identity_providers[0].keys.at("token_url"));
    CPPUNIT_ASSERT_EQUAL(std::string("gameid"), s.identity_providers[1].name);
    CPPUNIT_ASSERT_EQUAL(std::string("steamcommunity.com"),
                         s.identity_providers[1].keys.at("host"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SettingsTest);
