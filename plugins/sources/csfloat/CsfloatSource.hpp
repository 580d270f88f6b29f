#pragma once

// csfloat, two modes (`mode`):
//  - price_list (default, keyless): one GET {url}/api/v1/listings/price-list per poll,
//    [{"market_hash_name","min_price","quantity"}] for ~27,000 items: `min_price` is the
//    lowest listing in integer USD cents, `quantity` the number of listings. `Authorization`
//    is sent only when an api_key is set.
//  - listings (needs api_key): GET {url}/api/v1/listings?limit=50&sort_by=most_recent,
//    following the response's `cursor` for at most `max_pages` pages per poll; the cheapest
//    buy-now listing per item.market_hash_name and variant (item.paint_index: a Doppler
//    phase, sdk/variants.hpp) in one poll becomes one quote, timed by that listing's
//    `created_at`. A page that fails after earlier pages read well keeps them and is named
//    in the report's failed_parts ("page 3").

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include "ListSource.hpp"
#include "SourceSupport.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skinpulse::plugins::csfloat {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    {"url", "base address of CSFloat, e.g. https://csfloat.com", 1},
    {"mode", "price_list (default: the keyless price list) or listings (needs api_key)", 0},
    {"api_key",
     "CSFloat developer API key, sent as the Authorization header (secret); required by "
     "mode = listings",
     0},
    {"max_pages", "most listing pages (50 listings each) one poll requests (default 5)", 0},
    {"max_bytes",
     "largest accepted response in bytes (default 33554432 for the price list, 4194304 per "
     "listings page)",
     0},
    {"request_timeout_seconds", "timeout of each HTTP request in seconds (default 30)", 0},
};

/// The price list's rows (also what bench/sources and the fuzz target use).
support::Mapping priceListMapping();

/// RFC 3339 date-time to Unix seconds (shared with lisskins: SourceSupport.hpp).
using support::parseRfc3339;

/// One listings page (a bare array or {cursor, data}) folded into `cheapest` (keyed by name
/// and variant); rows and skips go to `report`. False when the page is not such a document
/// (`error` says why). Exposed for the contract tests.
struct ListingCandidate {
  std::int64_t cents = 0;
  std::optional<std::int64_t> observed_at;
};
using CheapestListings = std::map<std::pair<std::string, std::string>, ListingCandidate>;
bool readListingsPage(const std::string& body, CheapestListings& cheapest, sdk::PollReport& report,
                      std::string& next_cursor, std::string& error);
/// The quotes of `cheapest`.
std::vector<sdk::VariantQuote> listingQuotes(const CheapestListings& cheapest);

class CsfloatSource final : public sdk::ReportingSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit CsfloatSource(sdk::Host& host);

  sdk::PollReport poll() override;

 private:
  sdk::PollReport fetchListings();

  sdk::Host& host_;
  bool price_list_ = true;
  support::ListRequest price_list_request_;
  std::string base_url_;
  std::string api_key_;  ///< never logged
  std::size_t max_pages_ = 5;
  std::size_t max_bytes_ = 4u * 1024u * 1024u;
  std::chrono::milliseconds timeout_{30000};
};

}  // namespace skinpulse::plugins::csfloat
