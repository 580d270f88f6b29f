#pragma once

// bitskins: one GET {url}/market/insell/730 per poll, a summary of every CS2 item on sale:
// {"list":[{"skin_id","name","price_min","price_max","price_avg","quantity"}]}. Prices are
// THOUSANDTHS of a dollar; `price_min` is the lowest listing, `quantity` the number of
// listings. No time: the poll time is used.

#include "skinpulse/sdk/plugin.hpp"

#include "ListSource.hpp"

namespace skinpulse::plugins::bitskins {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    SKINPULSE_LIST_SOURCE_KEYS("https://api.bitskins.com", "33554432"),
};

/// Where the rows and their fields are (also what bench/sources and the fuzz target use).
support::Mapping mapping();

class BitskinsSource final : public support::ListSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit BitskinsSource(sdk::Host& host);
};

}  // namespace skinpulse::plugins::bitskins
