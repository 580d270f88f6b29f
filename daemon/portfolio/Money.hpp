#pragma once

// Money: the one place every amount the portfolio answers with passes through — the
// Portfolio and Holding JSON, the history and the CSV (docs/api.md §15). Amounts are
// stored and computed as USD cents; an answer shows them in `currency()`, converted by
// minor() (integer minor units) or major() (a decimal text for the CSV). Today that is
// USD unchanged. Converting (docs/api.md §14: newest rate, rounded half away from zero to
// the currency's ISO 4217 exponent) is a Money built from a rate and an exponent; the
// writers need no change.

#include <cstdint>
#include <string>

namespace skinpulse::portfolio {

class Money {
 public:
  /// US dollars: cents unchanged, 2 decimals.
  Money() = default;

  const std::string& currency() const { return currency_; }
  /// Digits after the decimal point in major units (ISO 4217 exponent).
  int exponent() const { return exponent_; }

  /// `cents` (USD) in minor units of currency().
  std::int64_t minor(std::int64_t cents) const { return cents; }

  /// `cents` (USD) in major units of currency() with exponent() decimals, "-" for a
  /// negative amount and "." as the separator: 123456 → "1234.56", -5 → "-0.05".
  std::string major(std::int64_t cents) const;

 private:
  std::string currency_ = "USD";
  int exponent_ = 2;
};

}  // namespace skinpulse::portfolio
