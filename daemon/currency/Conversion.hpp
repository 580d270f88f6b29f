#pragma once

// Conversion: what `currency=XXX` on a read endpoint means (docs/api.md §14). Built once
// per request from the RateBook; converts USD cents to integer minor units of XXX with
// the newest rate, rounded half away from zero.
//
//   const auto money = currency::currencyParam(request, rates);   // may throw 400
//   json.key("price").value(money.amount(point.price));
//   if (money.requested()) json.key("currency").value(money.code());

#include "currency/Money.hpp"
#include "currency/RateBook.hpp"
#include "http/Request.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::currency {

class Conversion {
 public:
  /// USD, not asked for: amounts unchanged, bodies without a `currency` field.
  Conversion() = default;
  /// USD asked for explicitly (`currency=USD`): amounts unchanged, `"currency":"USD"`.
  static Conversion usd(bool requested);
  /// Into `rate.currency`, whose ISO 4217 exponent is `exponent`.
  Conversion(Rate rate, int exponent);

  /// "USD", "EUR", ...
  const std::string& code() const { return code_; }
  /// Decimals of the currency's minor unit (USD 2, JPY 0, KWD 3).
  int exponent() const { return exponent_; }
  /// Whether the request named a currency: then bodies say `"currency":"<code>"`.
  bool requested() const { return requested_; }
  /// USD: nothing to convert.
  bool identity() const { return !rate_; }
  /// The rate used; nullopt for USD.
  const std::optional<Rate>& rate() const { return rate_; }

  /// `usd_cents` in minor units of code(), rounded half away from zero; saturates at the
  /// int64 range (no real price comes near it).
  std::int64_t amount(std::int64_t usd_cents) const;
  std::optional<std::int64_t> amount(std::optional<std::int64_t> usd_cents) const {
    if (!usd_cents) return std::nullopt;
    return amount(*usd_cents);
  }
  /// A non-integer USD-cent quantity (a mean, a deviation, a slope in cents per hour) in
  /// minor units, rounded half away from zero to an integer.
  std::int64_t amount(double usd_cents) const;

  /// Names the currency and the exact rate: part of every cache key of a converted body,
  /// so a new rate never serves an old body. "" for USD not asked for.
  std::string cacheTag() const;

 private:
  std::string code_ = "USD";
  int exponent_ = 2;
  bool requested_ = false;
  std::optional<Rate> rate_;
};

/// The Conversion for `code` (nullopt: the parameter is absent → USD, not requested).
/// Codes are read case-insensitively. Throws http::HttpError 400 invalid_parameter naming
/// `currency` when the code is not an ISO 4217 code or the book holds no rate for it.
Conversion conversionFor(const RateBook& rates, const std::optional<std::string>& code);

/// conversionFor() of the request's `currency` query parameter.
Conversion currencyParam(const http::Request& request, const RateBook& rates);

}  // namespace skinpulse::currency
