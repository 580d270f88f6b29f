#pragma once

// One page of GET /market/search/render/?norender=1 (README.md, "mode = search"), as
// MarketQuotes, without any I/O: every result's lowest ask (`sell_price`, integer cents
// of the requested currency), its `sell_listings` as listings and its
// `asset_description.icon_url` as an image on Steam's CDN. Hostile rows are skipped and
// counted.

#include "skinpulse/sdk/types.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::plugins::steam_market {

/// Where Steam serves item pictures; an icon_url is appended to it.
inline constexpr const char* kSteamImageBase =
    "https://community.akamai.steamstatic.com/economy/image/";
/// A price above $10,000,000 is garbage (Steam's own ceiling is far lower).
inline constexpr std::int64_t kMaxSearchCents = 1'000'000'000;

struct SearchPage {
  bool ok = false;
  std::string error;  ///< why, when !ok
  /// `total_count` of the answer, when it has one (0 is what throttling looks like).
  std::int64_t total_count = -1;
  std::size_t results = 0;  ///< rows in `results`, priced or not
  std::size_t skipped = 0;  ///< rows that were garbage
  std::vector<sdk::MarketQuote> quotes;
};

SearchPage parseSearchPage(const std::string& body);

/// The picture URL of an icon_url, or "" when it is not a plausible one (Steam's are
/// base64url-like: letters, digits, '-', '_', '.', '/').
std::string imageUrlOf(const std::string& icon_url);

}  // namespace skinpulse::plugins::steam_market
