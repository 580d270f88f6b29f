#pragma once

// waxpeer: one GET {url}/v1/prices?game=csgo&minified=0 per poll, every CS2 item Waxpeer
// lists: {"success":true,"items":[{"name","count","min","img","steam_price","type"}]}.
// `min` is the lowest listing in THOUSANDTHS of a dollar (937999 = $937.999), `count` the
// number of listings, `img` a picture (kept when https). No time: the poll time is used.

#include "skinpulse/sdk/plugin.hpp"

#include "ListSource.hpp"

namespace skinpulse::plugins::waxpeer {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    SKINPULSE_LIST_SOURCE_KEYS("https://api.waxpeer.com", "33554432"),
};

/// Where the rows and their fields are (also what bench/sources and the fuzz target use).
support::Mapping mapping();

class WaxpeerSource final : public support::ListSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit WaxpeerSource(sdk::Host& host);
};

}  // namespace skinpulse::plugins::waxpeer
