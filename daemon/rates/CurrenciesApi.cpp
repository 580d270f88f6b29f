#include "rates/CurrenciesApi.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"
#include "currency/Iso4217.hpp"

namespace skinpulse::rates {

std::string renderCurrencies(const currency::RateBook& book) {
  common::JsonWriter json;
  json.beginArray();
  json.beginObject()
      .key("code")
      .value("USD")
      .key("exponent")
      .value(2)
      .key("units_per_usd")
      .value(1.0)
      .key("numerator")
      .value(1)
      .key("denominator")
      .value(1)
      .key("time")
      .null()
      .key("instance")
      .null()
      .endObject();
  for (const auto& [code, rate] : *book.snapshot()) {
    json.beginObject()
        .key("code")
        .value(code)
        .key("exponent")
        .value(currency::currencyExponent(code).value_or(2))
        .key("units_per_usd")
        .value(rate.value())
        .key("numerator")
        .value(rate.numerator)
        .key("denominator")
        .value(rate.denominator)
        .key("time")
        .value(time::formatIso8601(rate.time))
        .key("instance")
        .value(rate.instance)
        .endObject();
  }
  json.endArray();
  return json.take();
}

void CurrenciesApi::registerRoutes(http::Router& router) {
  // The book in memory only: inline on the event loop (docs/adr/0010-front-door.md).
  const http::RouteOptions inline_route{.runs_inline = true};
  router.add(
      "GET", "/api/v1/currencies",
      [this](http::Request&, http::Response& response) { response.json(renderCurrencies(book_)); },
      inline_route);
}

}  // namespace skinpulse::rates
