#pragma once

// The profile of one platform account from the Web API (GetPlayerSummaries v0002,
// docs/upstreams.md §e.4). Optional: a login never fails because of it.

#include "skinpulse/sdk/host.hpp"

#include "OpenId2Settings.hpp"

#include <optional>
#include <string>

namespace skinpulse::plugins::openid2 {

struct PlayerProfile {
  std::string name;
  std::string avatar_url;
};

/// The request lookupProfile() sends (the key is in the query string: never log the URL).
sdk::HttpRequest playerSummariesRequest(const OpenId2Settings& settings,
                                        const std::string& platform_id);

/// Reads the player whose `steamid` equals `platform_id` from a response body.
std::optional<PlayerProfile> profileFrom(const std::string& body, const std::string& platform_id);

/// Nullopt when no key is configured or the lookup fails; failures are logged as warnings
/// without the URL.
std::optional<PlayerProfile> lookupProfile(sdk::Host& host, const OpenId2Settings& settings,
                                           const std::string& platform_id);

}  // namespace skinpulse::plugins::openid2
