#include "common/ConfigError.hpp"
#include "devmode/DevOptions.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using skinpulse::common::ConfigError;
using skinpulse::common::ConfigTree;
using skinpulse::common::OptionReader;
using skinpulse::devmode::applyDevMode;
using skinpulse::devmode::devModeRefusal;
using skinpulse::devmode::readDevOptions;

namespace {

// A tree as buildSettings has it when applyDevMode runs: defaults, then the file.
ConfigTree tree(const std::string& base_url, bool enabled) {
  ConfigTree t;
  t.set("daemon.base_url", base_url, "default");
  t.set("identity.gameid_openid_enabled", "false", "default");
  t.set("identity.gameid_openid_url", "https://steamcommunity.com/openid/login", "default");
  t.set("identity.gameid_host", "steamcommunity.com", "default");
  t.set("portfolio.inventory_url", "https://steamcommunity.com/inventory", "default");
  t.set("identity.gameid_api_url", "https://api.steampowered.com", "default");
  t.set("identity.gameid_api_key", "", "default");
  t.set("dev.player_id", "76561197960287930", "default");
  t.set("dev.enabled", enabled ? "true" : "false", "skinpulsed.ini:30");
  return t;
}

}  // namespace

class DevOptionsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DevOptionsTest);
  CPPUNIT_TEST(refusesHttpsAndThePackagedConfiguration);
  CPPUNIT_TEST(pointsGameidAndInventoryAtTheDaemon);
  CPPUNIT_TEST(explicitValuesWin);
  CPPUNIT_TEST(offChangesNothing);
  CPPUNIT_TEST(refusalNamesTheKey);
  CPPUNIT_TEST(playerIdMustBeAnIndividualId);
  CPPUNIT_TEST(aSecondAccountIsOptionalAndChecked);
  CPPUNIT_TEST_SUITE_END();

 public:
  void refusesHttpsAndThePackagedConfiguration() {
    CPPUNIT_ASSERT(devModeRefusal("http://127.0.0.1:8080", "/home/me/skinpulse/etc/dev").empty());
    CPPUNIT_ASSERT(devModeRefusal("http://127.0.0.1:8080", "etc/dev").empty());
    CPPUNIT_ASSERT(devModeRefusal("https://prices.example", "etc/dev").find("https") !=
                   std::string::npos);
    CPPUNIT_ASSERT(!devModeRefusal("http://127.0.0.1:8080", "/etc/skinpulse").empty());
    CPPUNIT_ASSERT(!devModeRefusal("http://127.0.0.1:8080", "/etc/skinpulse/").empty());
    CPPUNIT_ASSERT(
        !devModeRefusal("http://127.0.0.1:8080", "/src/skinpulse/etc/skinpulse").empty());
    CPPUNIT_ASSERT(devModeRefusal("http://127.0.0.1:8080", "").find("--config") !=
                   std::string::npos);
  }

  void pointsGameidAndInventoryAtTheDaemon() {
    auto t = tree("http://127.0.0.1:45123", true);
    applyDevMode(t, "/tmp/x/etc/dev");
    CPPUNIT_ASSERT_EQUAL(std::string("true"), t.find("identity.gameid_openid_enabled")->text);
    CPPUNIT_ASSERT_EQUAL(std::string("http://127.0.0.1:45123/dev/openid"),
                         t.find("identity.gameid_openid_url")->text);
    CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1:45123"), t.find("identity.gameid_host")->text);
    CPPUNIT_ASSERT_EQUAL(std::string("http://127.0.0.1:45123/dev/inventory"),
                         t.find("portfolio.inventory_url")->text);
    CPPUNIT_ASSERT_EQUAL(std::string("http://127.0.0.1:45123/dev/api"),
                         t.find("identity.gameid_api_url")->text);
    const auto options = readDevOptions(OptionReader(t), "http://127.0.0.1:45123", "/share");
    CPPUNIT_ASSERT(options.enabled);
    CPPUNIT_ASSERT_EQUAL(std::string("/share/simulated/demo-inventory.json"),
                         options.inventory_file);
    CPPUNIT_ASSERT_EQUAL(std::string("http://127.0.0.1:45123/dev/openid"), options.openid_url);
    CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1:45123"), options.claimed_host);
  }

  void explicitValuesWin() {
    auto t = tree("http://127.0.0.1:8080", true);
    t.set("portfolio.inventory_url", "http://127.0.0.1:9999/inventory", "GAMEID_INVENTORY_URL");
    applyDevMode(t, "etc/dev");
    CPPUNIT_ASSERT_EQUAL(std::string("http://127.0.0.1:9999/inventory"),
                         t.find("portfolio.inventory_url")->text);
    CPPUNIT_ASSERT_EQUAL(std::string("http://127.0.0.1:8080/dev/openid"),
                         t.find("identity.gameid_openid_url")->text);
  }

  void offChangesNothing() {
    auto t = tree("https://prices.example", false);
    applyDevMode(t, "/etc/skinpulse");  // neither refused nor applied
    CPPUNIT_ASSERT_EQUAL(std::string("false"), t.find("identity.gameid_openid_enabled")->text);
    CPPUNIT_ASSERT(!readDevOptions(OptionReader(t), "https://prices.example", "/s").enabled);
  }

  void refusalNamesTheKey() {
    for (const auto& [base, dir] :
         {std::pair<std::string, std::string>{"https://x.example", "etc/dev"},
          {"http://127.0.0.1:8080", "/etc/skinpulse"},
          {"http://127.0.0.1:8080", ""}}) {
      auto t = tree(base, true);
      try {
        applyDevMode(t, dir);
        CPPUNIT_FAIL("accepted " + base + " " + dir);
      } catch (const ConfigError& e) {
        const std::string what = e.what();
        CPPUNIT_ASSERT_MESSAGE(what, what.find("dev") != std::string::npos);
        CPPUNIT_ASSERT_MESSAGE(what, what.find("enabled") != std::string::npos);
      }
      CPPUNIT_ASSERT_EQUAL(std::string("false"), t.find("identity.gameid_openid_enabled")->text);
    }
  }

  void playerIdMustBeAnIndividualId() {
    for (const std::string bad : {"7656119796028793", "765611979602879300", "7656119796028793x",
                                  "76561197960265728", "99999999999999999"}) {
      auto t = tree("http://127.0.0.1:8080", true);
      t.set("dev.player_id", bad, "skinpulsed.ini:31");
      applyDevMode(t, "etc/dev");
      CPPUNIT_ASSERT_THROW_MESSAGE(
          bad, readDevOptions(OptionReader(t), "http://127.0.0.1:8080", "/s"), ConfigError);
    }
  }

  void aSecondAccountIsOptionalAndChecked() {
    auto off = tree("http://127.0.0.1:8080", true);
    applyDevMode(off, "etc/dev");
    const auto one = readDevOptions(OptionReader(off), "http://127.0.0.1:8080", "/share");
    CPPUNIT_ASSERT(one.second_player_id.empty());

    auto on = tree("http://127.0.0.1:8080", true);
    on.set("dev.second_player_id", "76561197960287931", "skinpulsed.ini:34");
    applyDevMode(on, "etc/dev");
    const auto two = readDevOptions(OptionReader(on), "http://127.0.0.1:8080", "/share");
    CPPUNIT_ASSERT_EQUAL(std::string("76561197960287931"), two.second_player_id);
    CPPUNIT_ASSERT_EQUAL(std::string("/share/simulated/demo-inventory-storage.json"),
                         two.second_inventory_file);

    for (const std::string bad : {"7656119796028793", "76561197960265728", "76561197960287930"}) {
      auto t = tree("http://127.0.0.1:8080", true);
      t.set("dev.second_player_id", bad, "skinpulsed.ini:34");
      applyDevMode(t, "etc/dev");
      try {
        readDevOptions(OptionReader(t), "http://127.0.0.1:8080", "/s");
        CPPUNIT_FAIL("accepted " + bad);
      } catch (const ConfigError& e) {
        CPPUNIT_ASSERT_MESSAGE(e.what(),
                               std::string(e.what()).find("second_player_id") != std::string::npos);
      }
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DevOptionsTest);
