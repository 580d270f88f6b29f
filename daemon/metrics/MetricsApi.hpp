#pragma once

// GET /api/v1/items/:id/volatility?window= and GET /api/v1/rankings/volatile?limit=&window=
// (docs/api.md, docs/api.md §3.2). Both answer from the metrics engine's current
// snapshot: no computation and no store access on a request.

#include "catalog/Catalog.hpp"
#include "currency/RateBook.hpp"
#include "http/Router.hpp"
#include "metrics/MetricsEngine.hpp"

namespace skinpulse::metrics {

class MetricsApi {
 public:
  /// `rates`: what `currency=` converts with (docs/api.md §14); null: only USD.
  MetricsApi(const catalog::Catalog& catalog, const metrics::MetricsEngine& engine,
             const currency::RateBook* rates = nullptr);

  void registerRoutes(http::Router& router);

  void volatility(http::Request& request, http::Response& response) const;
  void rankings(http::Request& request, http::Response& response) const;

 private:
  const catalog::Catalog& catalog_;
  const metrics::MetricsEngine& engine_;
  const currency::RateBook& rates_;
};

}  // namespace skinpulse::metrics
