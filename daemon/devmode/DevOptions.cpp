#include "devmode/DevOptions.hpp"

#include "common/ConfigError.hpp"

#include <filesystem>

namespace skinpulse::devmode {
namespace {

constexpr std::int64_t kFirstIndividualId = 76561197960265729LL;
constexpr std::int64_t kLastIndividualId = 76561202255233023LL;

// "http://127.0.0.1:8080" -> "127.0.0.1:8080" (what claimed IDs name as their host).
std::string authorityOf(const std::string& base_url) {
  const auto scheme = base_url.find("://");
  std::string rest = scheme == std::string::npos ? base_url : base_url.substr(scheme + 3);
  const auto slash = rest.find('/');
  if (slash != std::string::npos) rest.resize(slash);
  for (auto& c : rest) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return rest;
}

bool isDevIndividualId(const std::string& id) {
  const bool digits = id.size() == 17 && id.find_first_not_of("0123456789") == std::string::npos;
  return digits && std::stoll(id) >= kFirstIndividualId && std::stoll(id) <= kLastIndividualId;
}

void setIfDefault(common::ConfigTree& tree, const std::string& key, const std::string& value) {
  const auto current = tree.find(key);
  if (!current || current->origin == "default") tree.set(key, value, "[dev] enabled");
}

}  // namespace

const common::OptionTable<DevOptions>& devOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<DevOptions> table = {
      {{"dev.enabled", T::kBoolean, 0, 0, nullptr, "false",
        "Development mode: the daemon serves a local OpenID 2.0 provider (/dev/openid) and a "
        "demo inventory (/dev/inventory) and signs the gameid provider in against them. Only "
        "for the development configuration (etc/dev): refused with an https BASE_URL or the "
        "packaged configuration."},
       &DevOptions::enabled},
      {{"dev.player_id", T::kText, 0, 0, nullptr, "76561197960287930",
        "The platform id (17 digits, an individual account) the development provider signs "
        "in as, and whose demo inventory it serves."},
       &DevOptions::player_id},
      {{"dev.player_name", T::kText, 0, 0, nullptr, "Demo Trader",
        "The profile name of that player (what the dashboard shows once signed in)."},
       &DevOptions::player_name},
      {{"dev.inventory_file", T::kText, 0, 0, nullptr, nullptr,
        "The demo inventory: one page of the platform's inventory JSON.",
        "simulated/demo-inventory.json under share_dir"},
       &DevOptions::inventory_file},
      {{"dev.second_player_id", T::kText, 0, 0, nullptr, "",
        "A second development account (17 digits, not player_id), to try several linked "
        "accounts: linking an account then offers both; signing in is still player_id. "
        "Empty: one account only."},
       &DevOptions::second_player_id},
      {{"dev.second_player_name", T::kText, 0, 0, nullptr, "Demo Storage",
        "The profile name of the second account."},
       &DevOptions::second_player_name},
      {{"dev.second_inventory_file", T::kText, 0, 0, nullptr, nullptr,
        "The second account's demo inventory: one page of the platform's inventory JSON.",
        "simulated/demo-inventory-storage.json under share_dir"},
       &DevOptions::second_inventory_file},
  };
  return table;
}

std::string devModeRefusal(const std::string& base_url, const std::string& config_dir) {
  if (base_url.rfind("https://", 0) == 0) {
    return "is for a local development run only; BASE_URL is https (" + base_url + ")";
  }
  if (config_dir.empty()) {
    return "is for the development configuration only (etc/dev/skinpulsed.ini); no --config "
           "file is in use";
  }
  const std::filesystem::path dir = std::filesystem::path(config_dir).lexically_normal();
  const auto name = (dir.has_filename() ? dir : dir.parent_path()).filename();
  const auto parent = (dir.has_filename() ? dir : dir.parent_path()).parent_path().filename();
  if (name == "skinpulse" && parent == "etc") {
    return "is for the development configuration only, never the packaged one (" + dir.string() +
           ")";
  }
  return {};
}

void applyDevMode(common::ConfigTree& tree, const std::string& config_dir) {
  const auto enabled = tree.find("dev.enabled");
  if (!enabled) return;
  const common::OptionReader read(tree);
  if (!read.boolean("dev.enabled")) return;
  std::string base_url = tree.find("daemon.base_url") ? tree.find("daemon.base_url")->text : "";
  while (!base_url.empty() && base_url.back() == '/') base_url.pop_back();
  if (const std::string refusal = devModeRefusal(base_url, config_dir); !refusal.empty()) {
    throw common::ConfigError(tree.describe("dev.enabled"), refusal, "dev.enabled");
  }
  setIfDefault(tree, "identity.gameid_openid_enabled", "true");
  setIfDefault(tree, "identity.gameid_openid_url", base_url + "/dev/openid");
  setIfDefault(tree, "identity.gameid_host", authorityOf(base_url));
  setIfDefault(tree, "identity.gameid_api_url", base_url + "/dev/api");
  // Not a secret: the development profile API takes any key; the openid2 plugin asks for
  // a profile only when it has one.
  setIfDefault(tree, "identity.gameid_api_key", "development");
  setIfDefault(tree, "portfolio.inventory_url", base_url + "/dev/inventory");
}

DevOptions readDevOptions(const common::OptionReader& read, const std::string& base_url,
                          const std::string& share_dir) {
  DevOptions options;
  common::readOptions(devOptionTable(), read, options);
  if (!options.enabled) return options;
  if (!isDevIndividualId(options.player_id)) {
    read.fail("dev.player_id",
              "'" + options.player_id + "' is not a 17-digit individual platform id");
  }
  if (!read.present("dev.inventory_file")) {
    options.inventory_file = share_dir + "/simulated/demo-inventory.json";
  }
  if (!options.second_player_id.empty()) {
    if (!isDevIndividualId(options.second_player_id)) {
      read.fail("dev.second_player_id",
                "'" + options.second_player_id + "' is not a 17-digit individual platform id");
    }
    if (options.second_player_id == options.player_id) {
      read.fail("dev.second_player_id",
                "is dev.player_id itself; a second account needs its own id");
    }
  }
  if (!read.present("dev.second_inventory_file")) {
    options.second_inventory_file = share_dir + "/simulated/demo-inventory-storage.json";
  }
  options.base_url = base_url;
  options.openid_url = read.text("identity.gameid_openid_url");
  options.claimed_host = read.text("identity.gameid_host");
  return options;
}

}  // namespace skinpulse::devmode
