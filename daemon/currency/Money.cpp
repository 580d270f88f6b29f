#include "currency/Money.hpp"

#include "currency/Iso4217.hpp"

#include <limits>
#include <numeric>

namespace skinpulse::currency {
namespace {

__extension__ typedef __int128 Wide;  // __extension__: GCC and Clang have it, ISO C++ does not

std::int64_t pow10(int exponent) {
  std::int64_t out = 1;
  for (int i = 0; i < exponent; ++i) out *= 10;
  return out;
}

// n / d rounded half away from zero; d > 0.
std::optional<std::int64_t> roundDivide(Wide n, Wide d) {
  const bool negative = n < 0;
  const Wide magnitude = negative ? -n : n;
  Wide q = magnitude / d;
  const Wide r = magnitude % d;
  if (2 * r >= d) ++q;
  if (q > static_cast<Wide>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
  return static_cast<std::int64_t>(negative ? -q : q);
}

}  // namespace

std::optional<Rate> normaliseRate(Rate rate) {
  if (rate.numerator <= 0 || rate.denominator <= 0) return std::nullopt;
  if (!findCurrency(rate.currency)) return std::nullopt;
  const std::int64_t divisor = std::gcd(rate.numerator, rate.denominator);
  rate.numerator /= divisor;
  rate.denominator /= divisor;
  if (rate.numerator > kMaxRateTerm || rate.denominator > kMaxRateTerm) return std::nullopt;
  return rate;
}

std::optional<std::int64_t> mulDivRound(std::int64_t a, std::int64_t b, std::int64_t c) {
  if (c <= 0 || b < 0) return std::nullopt;
  return roundDivide(static_cast<Wide>(a) * b, c);
}

std::optional<std::int64_t> fromUsdCents(std::int64_t usd_cents, const Rate& rate, int exponent) {
  if (exponent < 0 || exponent > 4 || rate.numerator <= 0 || rate.denominator <= 0) {
    return std::nullopt;
  }
  // minor = cents / 100 × rate × 10^exponent
  const Wide n = static_cast<Wide>(usd_cents) * rate.numerator * pow10(exponent);
  const Wide d = static_cast<Wide>(rate.denominator) * 100;
  return roundDivide(n, d);
}

std::optional<std::int64_t> toUsdCents(std::int64_t amount, int amount_exponent, const Rate& rate) {
  if (amount_exponent < 0 || amount_exponent > 4 || rate.numerator <= 0 || rate.denominator <= 0) {
    return std::nullopt;
  }
  // cents = amount / 10^amount_exponent / rate × 100
  const Wide n = static_cast<Wide>(amount) * rate.denominator * 100;
  const Wide d = static_cast<Wide>(rate.numerator) * pow10(amount_exponent);
  return roundDivide(n, d);
}

}  // namespace skinpulse::currency
