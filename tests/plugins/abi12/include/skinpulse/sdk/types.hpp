#pragma once

// Value types shared by the host and plugins: standard-library members only.
// Times are Unix seconds (UTC) unless a name says otherwise.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skinpulse::sdk {

/// Ordered list of name/value pairs (HTTP headers, query or form parameters).
using Fields = std::vector<std::pair<std::string, std::string>>;

/// One catalogue entry as plugins see it.
struct CatalogItem {
  std::int64_t id = 0;
  std::string market_hash_name;
  std::string weapon_type;
  std::string skin_name;
  std::string rarity;
  bool stattrak = false;
};

/// A price as the upstream gave it. The host, not the plugin, turns it into integer USD
/// cents (docs/api.md §4), so every source is normalised by one tested routine.
struct QuotedPrice {
  enum class Form {
    kCents,  ///< integer minor units in `cents`
    kMajor,  ///< a floating-point major-unit amount in `major` (rounded half away from zero)
    kText,   ///< a formatted string in `text`, e.g. "$1,234.56" or "1.234,56€"
  };
  Form form = Form::kCents;
  std::int64_t cents = 0;
  double major = 0.0;
  std::string text;
};

/// One observation of one item on one market, as returned by an ABI 1.0/1.1 source
/// plugin (MarketSource::fetch()). Frozen: its layout is part of ABI 1.x. A source that
/// has more to say returns MarketQuote (ABI 1.2) instead.
struct Observation {
  /// Exactly as the upstream spelled it; the host trims it and matches the catalogue.
  std::string market_hash_name;
  QuotedPrice price;
  /// Traded volume; 0 if unknown. (Before ABI 1.2 some sources put a listing count here;
  /// a count of listings belongs in MarketQuote::listings.)
  std::int64_t volume = 0;
  /// The upstream's own observation time, when it gives one; otherwise the poll time is used.
  std::optional<std::int64_t> observed_at;
};

// ---- Since ABI 1.2 (docs/adr/0011-sdk-abi-1-2.md) ----------------------------------------
// New types only: nothing above changed its layout, so plugins built against 1.0/1.1 keep
// loading. The host reads MarketQuote only from sources that declare ABI >= 1.2 and fill
// the descriptor's fetch_quotes entry (plugin.hpp).

/// What a price is. Stored with every point; the API shows it next to the price.
enum class PriceKind : std::uint8_t {
  kAsk = 0,        ///< the lowest current listing (what a buyer pays now)
  kBid = 1,        ///< the highest buy order (what a seller gets now)
  kSale = 2,       ///< a sale, or an average of recent sales
  kReference = 3,  ///< a suggested or reference price, neither listed nor traded
};

/// "ask", "bid", "sale" or "reference".
inline std::string_view priceKindName(PriceKind kind) {
  switch (kind) {
    case PriceKind::kBid:
      return "bid";
    case PriceKind::kSale:
      return "sale";
    case PriceKind::kReference:
      return "reference";
    case PriceKind::kAsk:
      break;
  }
  return "ask";
}

/// The kind named exactly (lower case) "ask", "bid", "sale" or "reference"; nullopt otherwise.
inline std::optional<PriceKind> parsePriceKind(std::string_view text) {
  if (text == "ask") return PriceKind::kAsk;
  if (text == "bid") return PriceKind::kBid;
  if (text == "sale") return PriceKind::kSale;
  if (text == "reference") return PriceKind::kReference;
  return std::nullopt;
}

/// One observation of one item on one market, ABI 1.2: an Observation that also says what
/// kind of price it is, how many listings there are, in which currency it is quoted and
/// what the item looks like. Returned by QuoteSource::fetchQuotes() (source.hpp).
struct MarketQuote {
  /// Exactly as the upstream spelled it; the host trims it and matches the catalogue.
  std::string market_hash_name;
  QuotedPrice price;
  /// Unset: the instance's `kind` key (`kind = bid` in its section), which defaults to
  /// ask. Set it only when the plugin knows better than its configuration (a feed that
  /// gives both a bid and an ask per item).
  std::optional<PriceKind> kind;
  /// Traded volume only; 0 if unknown. Never a listing count.
  std::int64_t volume = 0;
  /// Number of current listings (sell offers), when the upstream gives it.
  std::optional<std::int64_t> listings;
  /// ISO 4217 code of `price`, upper case; empty means USD. The host converts other
  /// currencies to USD at ingest, or rejects the quote (`no_rate`) when it has no rate.
  std::string currency;
  /// The upstream's own observation time, when it gives one; otherwise the poll time is used.
  std::optional<std::int64_t> observed_at;
  /// An https:// picture of the item, when the upstream gives one; empty otherwise.
  std::string image_url;
};

}  // namespace skinpulse::sdk
