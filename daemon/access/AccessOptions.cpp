#include "access/AccessOptions.hpp"

namespace skinpulse::access {

const common::OptionTable<AccessOptions>& accessOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<AccessOptions> table = {
      {{"api.requests_per_minute", T::kInteger, 0, 1000000000, "API_REQUESTS_PER_MINUTE", "0",
        "Reads (GET/HEAD under /api/v1, except /api/v1/auth and the WebSocket) per minute "
        "per client without an API key: the client is its address, an IPv6 /64, or the "
        "forwarded client behind a trusted proxy. Over it: 429 rate_limited with "
        "Retry-After. Each daemon counts its own. 0: unlimited."},
       &AccessOptions::requests_per_minute},
      {{"api.key_requests_per_minute", T::kInteger, 0, 1000000000, "API_KEY_REQUESTS_PER_MINUTE",
        "0",
        "Reads per minute per API key (Authorization: Bearer spk_...), counted per key "
        "whatever address it comes from. 0: unlimited."},
       &AccessOptions::key_requests_per_minute},
      {{"api.max_keys_per_user", T::kInteger, 1, 1000, nullptr, "10",
        "API keys one user may hold; creating one more answers 409 api_key_limit."},
       &AccessOptions::max_keys_per_user},
      {{"api.key_cache_seconds", T::kInteger, 1, 300, nullptr, "10",
        "Seconds between two reloads of the API keys from the database: a key created or "
        "revoked on another daemon is known here within this bound (on the daemon that "
        "answered the request, at once)."},
       &AccessOptions::key_cache_seconds},
      {{"api.usage_flush_seconds", T::kInteger, 1, 3600, nullptr, "30",
        "Seconds between two writes of the API keys' usage counts (requests, last use) to "
        "the database: one batched write, never one per request."},
       &AccessOptions::usage_flush_seconds},
  };
  return table;
}

}  // namespace skinpulse::access
