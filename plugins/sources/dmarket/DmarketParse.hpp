#pragma once

// DMarket answers as MarketQuotes, without any I/O (README.md): the aggregated-prices
// batch (a bid and an ask per title, with their counts) and the signed last-sales list.
// Hostile rows are skipped and counted; a body that is not the expected object fails the
// whole answer; a batch whose prices are plainly in another unit than `price_unit`
// fails too (unit_mismatch), because storing it would be off by ×100.

#include "skinpulse/sdk/source.hpp"
#include "skinpulse/sdk/types.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugins::dmarket {

/// How the feed writes prices: "1250" (cents, the default) or "12.50" (US dollars).
enum class PriceUnit { kCents, kMajor };

/// The dearest price accepted: $10,000,000 (the dearest CS2 sales are near $1.5 M); above
/// it a row is garbage, not a price.
inline constexpr std::int64_t kMaxCents = 1'000'000'000;
/// A count above this is garbage, not a number of listings.
inline constexpr std::int64_t kMaxCount = 100'000'000;

struct ParsedAnswer {
  bool ok = false;
  bool unit_mismatch = false;  ///< ok is false: prices plainly in the other unit
  std::string error;           ///< why, when !ok
  std::vector<sdk::VariantQuote> quotes;
  std::size_t rows = 0;
  std::size_t skipped = 0;  ///< rows (or sides of rows) that were garbage, all reasons
  /// The same per reason: `bad_row`, `bad_name`, `bad_price`, `other_currency`, `bad_time`.
  sdk::SkipCounts reasons;
};

/// An aggregated-prices body: `{"aggregatedPrices":[{"title","orderBestPrice","orderCount",
/// "offerBestPrice","offerCount"}],"nextCursor"}`. Each row gives up to two quotes: kind
/// bid (orderBestPrice, listings = orderCount) and kind ask (offerBestPrice, listings =
/// offerCount); a side with a zero count or a zero price has nobody on it and is left out.
/// A price is `{"Currency":"USD","Amount":"1500"}` (what the live service sends: Amount in
/// cents, a string or a number) or a plain string or integer ("1500"); a count a number or
/// a string of digits. A price in another currency is skipped as `other_currency`, one
/// that is neither form as `bad_price`.
ParsedAnswer parseAggregated(const std::string& body, PriceUnit unit);

/// A last-sales body: `{"sales":[{"price","date","txOperationType"}]}` for `title`: one
/// quote of kind sale per sale, observed_at = date (unix seconds, number or text).
ParsedAnswer parseSales(const std::string& body, const std::string& title, PriceUnit unit);

/// One price as the feed writes it (JSON string or integer) in `unit`, as a QuotedPrice
/// in cents; nullopt for garbage, zero or out of range. `looks_major` is set when the
/// text has a decimal point, which a cent price never has.
std::optional<std::int64_t> priceCents(std::string_view text, PriceUnit unit, bool& looks_major);

}  // namespace skinpulse::plugins::dmarket
