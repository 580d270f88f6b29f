#pragma once

// CrossMarket (docs/api.md §12): what the latest prices of one item say across markets.
// The consensus price is the median of the fresh latest prices of kind ask (else of any
// kind), the lower middle for an even count; the spread is (max − min) / min × 100 over
// the same prices. The spread opportunity buys at the cheapest fresh ask and sells at the
// dearest fresh price of another source, net of that source's fee. Which prices count is
// the price policy's (PricePolicy::trusts: fresh, and not flagged when outliers are
// excluded). Pure functions over a LatestPrices entry: any thread.

#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::quality {

struct Consensus {
  std::optional<std::int64_t> price;
  std::optional<double> spread_percent;
  std::size_t sources = 0;  ///< how many prices the two figures are taken over
};

/// The lower median of `prices` (not empty); reorders them.
std::int64_t lowerMedian(std::vector<std::int64_t>& prices);

Consensus consensus(const std::vector<prices::SourceLatest>& latest,
                    const prices::PricePolicy& policy, std::int64_t now);

struct SpreadOpportunity {
  std::string buy_source;
  std::int64_t buy_price = 0;
  std::string sell_source;
  std::int64_t sell_price = 0;  ///< net of the sell source's fee, cents
  double spread_percent = 0.0;  ///< (sell − buy) / buy × 100
};

/// Fee per source name, in percent (absent: 0).
using FeeTable = std::map<std::string, double, std::less<>>;

/// The net price a sale of `price` at a source with `fee_percent` brings, rounded to cents.
std::int64_t netOfFee(std::int64_t price, double fee_percent);

/// The best buy-here-sell-there gap of one item, or nothing when fewer than `min_sources`
/// sources have a fresh trusted price, no fresh ask exists, or no other source sells.
std::optional<SpreadOpportunity> bestSpread(const std::vector<prices::SourceLatest>& latest,
                                            const prices::PricePolicy& policy, const FeeTable& fees,
                                            std::size_t min_sources, std::int64_t now);

}  // namespace skinpulse::quality
