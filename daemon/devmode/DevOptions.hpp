#pragma once

// DevOptions: the `[dev]` section, which turns on the development sign-in of a quick-start
// run (docs/operations.md, "Development mode"): a local OpenID 2.0 provider and a demo
// inventory served by the daemon itself, so the Portfolio, P&L, CSV and Alerts flows can
// be tried without a game-platform account. The real sign-in and import code paths run
// against them; nothing else changes.
//
// Development mode must never reach a production install, so it is refused at start
// (one ConfigError naming `dev.enabled`) when BASE_URL is https or the configuration is
// the packaged one.
//
// A development profile API (GetPlayerSummaries at /dev/api) gives the signed-in player a
// name, as the platform's Web API does with a key.
//
// A second development account (`second_player_id`, off when empty) lets several linked
// accounts be tried (docs/api.md §23.2): it has its own demo inventory, and linking an
// account offers a choice of the two, while signing in stays the first account at once.

#include "common/ConfigTree.hpp"
#include "common/OptionTable.hpp"

#include <string>

namespace skinpulse::devmode {

struct DevOptions {
  bool enabled = false;
  std::string player_id;              ///< the 17-digit platform id the development provider asserts
  std::string player_name;            ///< its profile name (the development GetPlayerSummaries)
  std::string inventory_file;         ///< the demo inventory (the platform's inventory JSON)
  std::string second_player_id;       ///< a second development account; empty: none
  std::string second_player_name;     ///< its profile name
  std::string second_inventory_file;  ///< its demo inventory
  // Derived by readDevOptions(), not keys of [dev]:
  std::string base_url;    ///< BASE_URL without a trailing '/': the realm return_to must lie under
  std::string openid_url;  ///< identity.gameid_openid_url: the provider's own endpoint
  std::string claimed_host;  ///< identity.gameid_host: the host of the claimed IDs it asserts
};

const common::OptionTable<DevOptions>& devOptionTable();

/// Why development mode may not run, or "" when it may: BASE_URL is https, there is no
/// main configuration file, or the main file is the packaged one (it lies in a directory
/// `etc/skinpulse`: the installed /etc/skinpulse or the tree's etc/skinpulse it is
/// installed from).
std::string devModeRefusal(const std::string& base_url, const std::string& config_dir);

/// With `dev.enabled` true in `tree` (defaults and environment already layered in):
/// throws ConfigError naming `dev.enabled` when devModeRefusal() says no; otherwise points
/// the gameid provider and the inventory base at the daemon's own /dev endpoints, for
/// every such key that still holds its built-in default (an explicit value wins). No-op
/// when development mode is off.
void applyDevMode(common::ConfigTree& tree, const std::string& config_dir);

/// Reads `[dev]` (after applyDevMode); `share_dir` gives the default inventory files. A
/// second_player_id that is not an individual platform id, or is player_id itself, is a
/// ConfigError naming it.
DevOptions readDevOptions(const common::OptionReader& read, const std::string& base_url,
                          const std::string& share_dir);

}  // namespace skinpulse::devmode
