#pragma once

// Exact money arithmetic: USD cents to minor units of another currency and back, with a
// rate that is an exact fraction (sdk::CurrencyRate), rounded once, half away from zero
// (docs/api.md §14). Integer arithmetic in 128 bits: no binary fraction ever touches an
// amount, so 47.5 becomes 48 and −47.5 becomes −48, not whatever 0.95 × 50 is in a double.

#include <cstdint>
#include <optional>
#include <string>

namespace skinpulse::currency {

/// Units of `currency` per 1 USD, numerator / denominator, both in 1..kMaxRateTerm after
/// reduction; valid from `time` (Unix seconds); reported by rates instance `instance`.
struct Rate {
  std::string currency;
  std::int64_t numerator = 1;
  std::int64_t denominator = 1;
  std::int64_t time = 0;
  std::string instance;

  /// numerator / denominator as a double, for display only (GET /api/v1/currencies).
  double value() const { return static_cast<double>(numerator) / static_cast<double>(denominator); }
};

/// Largest numerator or denominator of a Rate: 10^15, which keeps every product of an
/// int64 amount, a rate term and 10^3 inside 128 bits.
inline constexpr std::int64_t kMaxRateTerm = 1'000'000'000'000'000;

/// `rate` with its fraction reduced; nullopt when a term is not positive or still above
/// kMaxRateTerm after reduction, or the code is not an ISO 4217 code of Iso4217.hpp.
std::optional<Rate> normaliseRate(Rate rate);

/// a × b / c rounded half away from zero, exactly; nullopt when c is 0 or the result is
/// outside int64. `b` and `c` must be non-negative.
std::optional<std::int64_t> mulDivRound(std::int64_t a, std::int64_t b, std::int64_t c);

/// `usd_cents` in minor units of rate.currency, whose exponent is `exponent` (0..4).
std::optional<std::int64_t> fromUsdCents(std::int64_t usd_cents, const Rate& rate, int exponent);

/// `amount` given in units of 10^-amount_exponent of rate.currency (amount_exponent 2 for
/// "hundredths of the major unit", or the currency's own exponent for minor units) in USD
/// cents.
std::optional<std::int64_t> toUsdCents(std::int64_t amount, int amount_exponent, const Rate& rate);

}  // namespace skinpulse::currency
