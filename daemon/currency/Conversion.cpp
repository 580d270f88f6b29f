#include "currency/Conversion.hpp"

#include <cmath>
#include <limits>

namespace skinpulse::currency {

Conversion Conversion::usd(bool requested) {
  Conversion out;
  out.requested_ = requested;
  return out;
}

Conversion::Conversion(Rate rate, int exponent)
    : code_(rate.currency), exponent_(exponent), requested_(true), rate_(std::move(rate)) {}

std::int64_t Conversion::amount(std::int64_t usd_cents) const {
  if (!rate_) return usd_cents;
  if (auto converted = fromUsdCents(usd_cents, *rate_, exponent_)) return *converted;
  return usd_cents < 0 ? std::numeric_limits<std::int64_t>::min()
                       : std::numeric_limits<std::int64_t>::max();
}

std::int64_t Conversion::amount(double usd_cents) const {
  long double value = usd_cents;
  if (rate_) {
    value = value * static_cast<long double>(rate_->numerator) /
            static_cast<long double>(rate_->denominator) * std::pow(10.0L, exponent_ - 2);
  }
  if (!std::isfinite(value)) return 0;
  const long double rounded = std::round(value);  // half away from zero
  if (rounded >= 9.2e18L) return std::numeric_limits<std::int64_t>::max();
  if (rounded <= -9.2e18L) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(rounded);
}

std::string Conversion::cacheTag() const {
  if (!requested_) return "";
  if (!rate_) return code_;
  return code_ + "@" + std::to_string(rate_->time) + ":" + std::to_string(rate_->numerator) + "/" +
         std::to_string(rate_->denominator);
}

}  // namespace skinpulse::currency
