#pragma once

// GET /api/v1/currencies (public; docs/api.md §14): the currencies `currency=` accepts —
// USD first, then every currency with a rate, by code — each with its ISO 4217 exponent,
// units per USD, the rate's time and the rates instance it came from.

#include "currency/RateBook.hpp"
#include "http/Router.hpp"

#include <string>

namespace skinpulse::rates {

/// The body of GET /api/v1/currencies for the book's current rates.
std::string renderCurrencies(const currency::RateBook& book);

class CurrenciesApi {
 public:
  explicit CurrenciesApi(const currency::RateBook& book) : book_(book) {}

  void registerRoutes(http::Router& router);

 private:
  const currency::RateBook& book_;
};

}  // namespace skinpulse::rates
