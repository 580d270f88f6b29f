#pragma once

// OpenId2Settings: the gameid provider's configuration, as the daemon derives it from
// the [identity] gameid_* keys (daemon/app/Settings.cpp readIdentityProviders).

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"

#include <chrono>
#include <cstddef>
#include <string>

namespace skinpulse::plugins::openid2 {

inline const skinpulse_config_key kConfigKeys[] = {
    {"openid_url", "OP endpoint; op_endpoint must equal it (GAMEID_OPENID_URL)", 1},
    {"host", "the only host a claimed ID may name (GAMEID_HOST)", 1},
    {"api_url", "Web API base for player summaries (GAMEID_API_URL)", 0},
    {"api_key", "Web API key; empty: no profile name/avatar (GAMEID_API_KEY)", 0},
};

struct OpenId2Settings {
  std::string openid_url;
  std::string host;
  std::string api_url;  ///< without trailing '/'
  std::string api_key;  ///< empty: no profile lookup

  std::chrono::milliseconds timeout{10000};
  std::size_t verify_max_bytes = 16 * 1024;
  std::size_t profile_max_bytes = 256 * 1024;

  /// Reads and checks the keys; throws std::invalid_argument naming the bad key.
  static OpenId2Settings from(const sdk::Config& config);
};

}  // namespace skinpulse::plugins::openid2
