#pragma once

// DevModule: development mode's endpoints, registered only when `[dev] enabled = true`
// (docs/operations.md, "Development mode"):
//   GET  /dev/openid   checkid_setup: a signed positive assertion for `[dev] player_id`;
//                      with `[dev] second_player_id`, a link (any return_to but the login
//                      callback's) first answers a page to choose the account, whose links
//                      repeat the request with `dev_account=<id>`
//   POST /dev/openid   check_authentication: is_valid:true once per signed assertion
//   GET  /dev/inventory/{id64}/730/2   that account's demo inventory, in the platform's shape
//   GET  /dev/api/ISteamUser/GetPlayerSummaries/v0002/   the players' profile names
// The gameid provider and the inventory base point here (DevOptions.cpp), so signing in
// and importing run the real code paths. The routes answer from memory, on the event
// loop: the daemon calls them itself while one of its workers waits for the answer.

#include "devmode/DevOpenIdProvider.hpp"
#include "devmode/DevOptions.hpp"
#include "module/Module.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::devmode {

class DevModule final : public module::Module {
 public:
  /// Loads and checks the demo inventories; throws std::runtime_error naming the file when
  /// one cannot be read or is not an inventory page.
  explicit DevModule(DevOptions options);

  std::string_view name() const override { return "dev"; }
  void registerRoutes(http::Router& router) override;
  bool describeReadiness(common::JsonWriter& json) const override;

  void login(http::Request& request, http::Response& response) const;
  void checkAuthentication(http::Request& request, http::Response& response);
  void inventory(http::Request& request, http::Response& response) const;
  void playerSummaries(http::Request& request, http::Response& response) const;

 private:
  /// The configured account of that id (its name, its inventory), or nullptr.
  struct DevAccount {
    std::string player_id;
    std::string player_name;
    std::shared_ptr<const std::string> inventory;
  };
  const DevAccount* accountOf(std::string_view player_id) const;
  void chooseAccount(const sdk::Fields& query, http::Response& response) const;

  DevOptions options_;
  std::vector<DevAccount> accounts_;  ///< player_id first, then the second account if any
  std::unique_ptr<DevOpenIdProvider> provider_;
};

/// Throws std::runtime_error unless `body` is an inventory page: a JSON object with
/// `assets` and `descriptions` arrays and `success` 1.
void checkInventoryPage(const std::string& body, const std::string& origin);

}  // namespace skinpulse::devmode
