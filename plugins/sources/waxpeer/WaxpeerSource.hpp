#pragma once

// waxpeer: one GET {url}/v1/prices?game=csgo&minified=0 per poll, every CS2 item Waxpeer
// lists: {"success":true,"items":[{"name","count","min","img","steam_price","type"}]}.
// `min` is the lowest listing in THOUSANDTHS of a dollar (937999 = $937.999), `count` the
// number of listings, `img` a picture (kept when https). No time: the poll time is used.

#include "ListSource.hpp"

namespace skinpulse::plugins::waxpeer {

/// Where the rows and their fields are (also what bench/sources and the fuzz target use).
support::Mapping mapping();
inline constexpr support::ListSpec kSpec{"waxpeer", "https://api.waxpeer.com",
                                         "/v1/prices?game=csgo&minified=0"};
using WaxpeerSource = support::FixedListSource<kSpec, mapping>;

}  // namespace skinpulse::plugins::waxpeer
