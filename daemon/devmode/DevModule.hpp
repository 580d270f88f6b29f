#pragma once

// DevModule: development mode's endpoints, registered only when `[dev] enabled = true`
// (docs/operations.md, "Development mode"):
//   GET  /dev/openid   checkid_setup: a signed positive assertion for `[dev] player_id`
//   POST /dev/openid   check_authentication: is_valid:true once per signed assertion
//   GET  /dev/inventory/{id64}/730/2   the demo inventory, in the platform's JSON shape
//   GET  /dev/api/ISteamUser/GetPlayerSummaries/v0002/   the player's profile name
// The gameid provider and the inventory base point here (DevOptions.cpp), so signing in
// and importing run the real code paths. The routes answer from memory, on the event
// loop: the daemon calls them itself while one of its workers waits for the answer.

#include "devmode/DevOpenIdProvider.hpp"
#include "devmode/DevOptions.hpp"
#include "module/Module.hpp"

#include <memory>
#include <string>

namespace skinpulse::devmode {

class DevModule final : public module::Module {
 public:
  /// Loads and checks the demo inventory; throws std::runtime_error naming the file when
  /// it cannot be read or is not an inventory page.
  explicit DevModule(DevOptions options);

  std::string_view name() const override { return "dev"; }
  void registerRoutes(http::Router& router) override;
  bool describeReadiness(common::JsonWriter& json) const override;

  void login(http::Request& request, http::Response& response) const;
  void checkAuthentication(http::Request& request, http::Response& response);
  void inventory(http::Request& request, http::Response& response) const;
  void playerSummaries(http::Request& request, http::Response& response) const;

 private:
  DevOptions options_;
  std::shared_ptr<const std::string> inventory_;
  std::unique_ptr<DevOpenIdProvider> provider_;
};

/// Throws std::runtime_error unless `body` is an inventory page: a JSON object with
/// `assets` and `descriptions` arrays and `success` 1.
void checkInventoryPage(const std::string& body, const std::string& origin);

}  // namespace skinpulse::devmode
