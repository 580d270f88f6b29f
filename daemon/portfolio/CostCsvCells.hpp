#pragma once

// CostCsvCells: the values of one cell of the cost-basis upload (docs/api.md §23.3), each
// read strictly: a cell is what it says or nothing (the row is then refused with the
// column's code). Surrounding spaces and tabs are ignored everywhere.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::portfolio {

/// The most units one row may name: far above any inventory (a few thousand items), far
/// below an overflow of quantity × cost.
inline constexpr std::int64_t kMaxCsvQuantity = 1'000'000;

/// The cell's text as written: without surrounding spaces and without the "'" the
/// portfolio.csv export puts before a text that starts with = + - @ TAB or CR
/// (PortfolioCsv.cpp, its formula guard), so the export reads back unchanged.
std::string csvCellText(std::string_view cell);

/// A quantity: decimal digits only, 1..kMaxCsvQuantity.
std::optional<std::int64_t> csvQuantity(std::string_view cell);

/// An amount in major units with at most `exponent` decimals ("12", "12.5", "12.50" for
/// exponent 2; "1250" for exponent 0), no sign, no thousands separator, in minor units
/// (1250). nullopt when malformed, or above 10^15 minor units.
std::optional<std::int64_t> csvAmount(std::string_view cell, int exponent);

/// A date: `YYYY-MM-DD` (midnight UTC) or an RFC 3339 time (`2026-11-20T18:00:00Z`,
/// `2026-11-20T19:00:00+01:00`, fractions of a second dropped), as Unix seconds. nullopt
/// when malformed. The caller checks the range.
std::optional<std::int64_t> csvDate(std::string_view cell);

}  // namespace skinpulse::portfolio
