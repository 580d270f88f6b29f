#pragma once

// market_csgo: market.csgo.com's two public price lists per poll, one batch of two kinds:
//  - asks: GET {url}/api/v2/prices/USD.json → {"success":true,"time":…,"currency":"USD",
//    "items":[{"market_hash_name","volume":"5312","price":"0.512"}]}: `price` is the lowest
//    listing in dollars as a string, `volume` the number of LISTINGS (not traded volume);
//  - bids: GET {url}/api/v2/prices/class_instance/USD.json → "items" keyed by
//    "classid_instanceid", each with `market_hash_name` and `buy_order` (the best buy
//    order, dollars as a string): several entries share a name, the highest wins.
// The top-level `time` (Unix seconds) times every row of its list. The two lists are two
// parts of one poll (SDK ABI 1.3): when one fails, the other's quotes are kept and the
// failed one is named in the report's failed_parts ("asks" or "bids"); only when both fail
// does the poll fail. Bids are reduced to the best per name on purpose: the host's rule for
// several rows of a name (the lowest sets the base item, docs/api.md §18) is an ask's rule,
// and the best buy order is the highest.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include "ListSource.hpp"

#include <vector>

namespace skinpulse::plugins::market_csgo {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    SKINPULSE_LIST_SOURCE_KEYS("https://market.csgo.com", "67108864"),
    {"bids", "also poll the class_instance list for the best buy order per item (default true)", 0},
};

/// The asks list (prices/USD.json) and the bids list (prices/class_instance/USD.json).
support::Mapping askMapping();
support::Mapping bidMapping();

/// One bid per name, the highest; the first seen when prices are not comparable numbers.
/// Order: first appearance.
std::vector<sdk::VariantQuote> bestBids(std::vector<sdk::VariantQuote> bids);

class MarketCsgoSource final : public sdk::ReportingSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit MarketCsgoSource(sdk::Host& host);

  sdk::PollReport poll() override;

 private:
  sdk::Host& host_;
  support::ListRequest asks_;
  support::ListRequest bids_;
  bool with_bids_ = true;
};

}  // namespace skinpulse::plugins::market_csgo
