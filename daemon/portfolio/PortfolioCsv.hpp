#pragma once

// PortfolioCsv: GET /api/v1/portfolio.csv (docs/api.md §15). RFC 4180: a header row,
// CRLF after every row, a field quoted when it holds '"', ',', CR or LF, a '"' inside
// doubled. Formula-injection safe as OWASP's "CSV Injection" page advises: a TEXT cell
// starting with '=', '+', '-', '@', tab or CR gets a leading "'" and is quoted, so no
// spreadsheet evaluates it. Numeric cells are never prefixed: we write them ourselves
// from integers, so they are always -?digits[.digits], which every spreadsheet reads as
// a number (a loss stays a negative number you can sum), never as a formula.

#include "portfolio/Money.hpp"
#include "portfolio/Valuation.hpp"

#include <string>
#include <string_view>

namespace skinpulse::portfolio {

/// One text cell, neutralised and quoted as above.
std::string csvText(std::string_view text);

/// A percentage with 2 decimals ("12.50", "-3.25"; never "-0.00").
std::string csvPercent(double percent);

/// The whole document: the header row, then one row per holding in the valuation's order.
/// The columns of docs/api.md §23.1 (account, variant, applied — the names joined by
/// "; " — and applied_value) come last, so readers of the older columns keep working.
/// Amounts in major units of `money` with its exponent's decimals, empty cells for
/// nulls, times ISO 8601 UTC.
std::string portfolioCsv(const Valuation& valuation, const Money& money);

}  // namespace skinpulse::portfolio
