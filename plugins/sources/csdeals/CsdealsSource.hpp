#pragma once

// csdeals: one GET {url}/API/IPricing/GetLowestPrices/v1?appid=730 per poll:
// {"success":true,"response":{"time_updated":…,"appid":730,"items":[{"marketname",
// "lowest_price":"1.23"}]}}. `lowest_price` is the lowest listing in dollars, as a string;
// `time_updated` (Unix seconds) times every row. No listing count.

#include "ListSource.hpp"

namespace skinpulse::plugins::csdeals {

/// Where the rows and their fields are (also what bench/sources and the fuzz target use).
support::Mapping mapping();
inline constexpr support::ListSpec kSpec{"csdeals", "https://cs.deals",
                                         "/API/IPricing/GetLowestPrices/v1?appid=730"};
using CsdealsSource = support::FixedListSource<kSpec, mapping>;

}  // namespace skinpulse::plugins::csdeals
