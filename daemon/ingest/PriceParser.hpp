#pragma once

// Turns the prices sources report into integer cents (docs/api.md §4). One routine for
// every source, so "$1,234.56", "1.234,56€", 12.345 and 1234 mean the same everywhere.

#include "skinpulse/sdk/types.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace skinpulse::ingest {

/// A formatted price ("$1,234.56", "1.234,56€", "¥ 4.66", "4,76 pуб.") in cents: the
/// last '.' or ',' followed by one or two digits is the decimal separator, every other
/// '.', ',', space, apostrophe or NBSP groups thousands; currency symbols and words
/// around the number are ignored. More than two decimals round half away from zero.
/// Empty optional for anything else: no digits, two numbers, a sign, garbage inside.
std::optional<std::int64_t> parsePriceText(std::string_view text);

/// A major-unit amount in cents, rounded half away from zero on its shortest decimal
/// form (so 1.005 is 101 cents, as written, not 100 as 1.005 * 100 computes).
std::optional<std::int64_t> majorToCents(double major);

/// Any QuotedPrice in cents; empty optional when it cannot be read or is not positive.
std::optional<std::int64_t> toCents(const sdk::QuotedPrice& price);

}  // namespace skinpulse::ingest
