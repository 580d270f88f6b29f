#pragma once

// bitskins: one GET {url}/market/insell/730 per poll, a summary of every CS2 item on sale:
// {"list":[{"skin_id","name","price_min","price_max","price_avg","quantity"}]}. Prices are
// THOUSANDTHS of a dollar; `price_min` is the lowest listing, `quantity` the number of
// listings. No time: the poll time is used.

#include "ListSource.hpp"

namespace skinpulse::plugins::bitskins {

/// Where the rows and their fields are (also what bench/sources and the fuzz target use).
support::Mapping mapping();
inline constexpr support::ListSpec kSpec{"bitskins", "https://api.bitskins.com",
                                         "/market/insell/730"};
using BitskinsSource = support::FixedListSource<kSpec, mapping>;

}  // namespace skinpulse::plugins::bitskins
