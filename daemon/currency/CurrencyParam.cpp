// The `currency=` parameter of a request (Conversion.hpp): apart from Conversion.cpp so
// the conversion arithmetic links without the HTTP layer (the holding_cost fuzz target).
#include "currency/Conversion.hpp"
#include "currency/Iso4217.hpp"
#include "http/HttpError.hpp"

#include <utility>

namespace skinpulse::currency {

Conversion conversionFor(const RateBook& rates, const std::optional<std::string>& code) {
  if (!code) return Conversion();
  std::string upper = *code;
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  const auto info = upper.size() == 3 ? findCurrency(upper) : std::nullopt;
  if (!info) {
    throw http::HttpError::invalidParameter("currency",
                                            "is not an ISO 4217 currency code (e.g. EUR)");
  }
  if (upper == "USD") return Conversion::usd(true);
  auto rate = rates.rateOf(upper);
  if (!rate) {
    throw http::HttpError::invalidParameter(
        "currency",
        "has no exchange rate: " + upper + " (GET /api/v1/currencies lists those that do)");
  }
  return Conversion(std::move(*rate), info->exponent);
}

Conversion currencyParam(const http::Request& request, const RateBook& rates) {
  return conversionFor(rates, request.queryParam("currency"));
}

}  // namespace skinpulse::currency
