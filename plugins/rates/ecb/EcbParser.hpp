#pragma once

// The European Central Bank's daily reference rates document (eurofxref-daily.xml):
//   <gesmes:Envelope ...><Cube><Cube time="2026-11-24">
//     <Cube currency="USD" rate="1.0512"/><Cube currency="JPY" rate="162.41"/>...
// Units of each currency per 1 EUR. parseEcbDaily() turns it into units per 1 USD as
// exact fractions: X per USD = rate(X) / rate(USD), EUR per USD = 1 / rate(USD).
//
// Hostile input: the document is refused before parsing when it is over `max_bytes` or
// carries any markup declaration (`<!DOCTYPE`, `<!ENTITY`, ...: the real document has
// none, and without a DTD there is no entity to expand, external or not); the parser has
// external entities switched off besides, and elements nested deeper than 16 are refused.
// A row with an unreadable code or rate is skipped and counted, never fatal.

#include "skinpulse/sdk/rates.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugins::ecb {

struct EcbDocument {
  std::vector<sdk::CurrencyRate> rates;  ///< per USD; EUR included, USD not
  std::size_t skipped = 0;               ///< rows with a bad code or rate
  std::string error;                     ///< non-empty: the document is unusable
};

inline constexpr std::size_t kDefaultMaxBytes = 1024 * 1024;
inline constexpr int kMaxDepth = 16;

EcbDocument parseEcbDaily(std::string_view xml, std::size_t max_bytes = kDefaultMaxBytes);

/// "2026-11-24" → Unix seconds of that day at 15:00 UTC (the ECB publishes around
/// 16:00 CET); -1 for anything else.
std::int64_t ecbDateTime(std::string_view date);

}  // namespace skinpulse::plugins::ecb
