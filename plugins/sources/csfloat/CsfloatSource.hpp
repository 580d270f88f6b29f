#pragma once

// csfloat: GET {url}/api/v1/listings?limit=50&sort_by=most_recent, following the
// response's `cursor` for at most `max_pages` pages per poll. Prices are integer USD
// cents (`price`); the cheapest buy-now listing per item.market_hash_name in one poll
// becomes one Observation, timed by that listing's `created_at`.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugins::csfloat {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    {"url", "base address of CSFloat, e.g. https://csfloat.com", 1},
    {"api_key", "CSFloat developer API key, sent as the Authorization header (secret)", 1},
    {"max_pages", "most listing pages (50 listings each) one poll requests (default 5)", 0},
    {"max_bytes", "largest accepted response page in bytes (default 4194304)", 0},
    {"request_timeout_seconds", "timeout of each HTTP request in seconds (default 30)", 0},
};

/// RFC 3339 date-time ("2021-06-13T20:45:21.311794Z", offsets allowed) to Unix seconds.
std::optional<std::int64_t> parseRfc3339(std::string_view text);

class CsfloatSource final : public sdk::MarketSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit CsfloatSource(sdk::Host& host);

  sdk::FetchResult fetch() override;

 private:
  sdk::Host& host_;
  std::string base_url_;
  std::string api_key_;  ///< never logged
  std::size_t max_pages_ = 5;
  std::size_t max_bytes_ = 4u * 1024u * 1024u;
  std::chrono::milliseconds timeout_{30000};
};

}  // namespace skinpulse::plugins::csfloat
