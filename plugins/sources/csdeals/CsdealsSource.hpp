#pragma once

// csdeals: one GET {url}/API/IPricing/GetLowestPrices/v1?appid=730 per poll:
// {"success":true,"response":{"time_updated":…,"appid":730,"items":[{"marketname",
// "lowest_price":"1.23"}]}}. `lowest_price` is the lowest listing in dollars, as a string;
// `time_updated` (Unix seconds) times every row. No listing count.

#include "skinpulse/sdk/plugin.hpp"

#include "ListSource.hpp"

namespace skinpulse::plugins::csdeals {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    SKINPULSE_LIST_SOURCE_KEYS("https://cs.deals", "33554432"),
};

/// Where the rows and their fields are (also what bench/sources and the fuzz target use).
support::Mapping mapping();

class CsdealsSource final : public support::ListSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit CsdealsSource(sdk::Host& host);
};

}  // namespace skinpulse::plugins::csdeals
