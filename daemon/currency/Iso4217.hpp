#pragma once

// The ISO 4217 currencies the daemon can show prices in, with their exponent (the number
// of decimals of the minor unit: USD 2, JPY 0, KWD 3). Every currency the European
// Central Bank publishes is here, plus the commonly traded others; a code outside the
// table is refused by `currency=` (400 invalid_parameter) and its rates are ignored.

#include <optional>
#include <string_view>
#include <vector>

namespace skinpulse::currency {

struct CurrencyInfo {
  std::string_view code;  ///< three upper-case letters
  int exponent = 2;       ///< decimals of the minor unit
};

/// The entry of `code` (exact, upper case), or nullopt for a code not in the table.
std::optional<CurrencyInfo> findCurrency(std::string_view code);

/// The exponent of `code`; nullopt for a code not in the table.
std::optional<int> currencyExponent(std::string_view code);

/// Every entry, ordered by code.
const std::vector<CurrencyInfo>& allCurrencies();

}  // namespace skinpulse::currency
