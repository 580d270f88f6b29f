#pragma once

// Money: the one place every amount the portfolio answers with passes through — the
// Portfolio and Holding JSON, the history and the CSV (docs/api.md §15). Amounts are
// stored and computed as USD cents; an answer shows them in `currency()`, converted by
// minor() (integer minor units) or major() (a decimal text for the CSV), with the
// request's `currency=` (docs/api.md §14: newest rate, rounded half away from zero to the
// currency's ISO 4217 exponent).

#include "currency/Conversion.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace skinpulse::portfolio {

class Money {
 public:
  /// US dollars: cents unchanged, 2 decimals.
  Money() = default;
  /// The currency a request asked for (currency::currencyParam).
  explicit Money(currency::Conversion conversion) : conversion_(std::move(conversion)) {}

  const std::string& currency() const { return conversion_.code(); }
  /// Digits after the decimal point in major units (ISO 4217 exponent).
  int exponent() const { return conversion_.exponent(); }
  /// Whether the request named a currency: JSON answers then say `"currency":"XXX"`.
  bool requested() const { return conversion_.requested(); }

  /// `cents` (USD) in minor units of currency().
  std::int64_t minor(std::int64_t cents) const { return conversion_.amount(cents); }

  /// `cents` (USD) in major units of currency() with exponent() decimals, "-" for a
  /// negative amount and "." as the separator: 123456 → "1234.56", -5 → "-0.05".
  std::string major(std::int64_t cents) const;

 private:
  currency::Conversion conversion_;
};

}  // namespace skinpulse::portfolio
