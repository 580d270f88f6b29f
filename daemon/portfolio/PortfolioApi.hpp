#pragma once

// The portfolio endpoints (docs/api.md §6 and §15): GET /api/v1/portfolio, POST
// /api/v1/portfolio/import, PATCH /api/v1/portfolio/holdings/:item_id, GET
// /api/v1/portfolio/history and GET /api/v1/portfolio.csv; POST
// /api/v1/portfolio/cost-basis.csv (§23.3). Every route is RequireAuth;
// the RequestGuard has checked the session and, for POST and PATCH, the CSRF token before
// a handler runs. Preconditions and failures map to the problem codes of docs/api.md §2
// and §15 here. Every amount goes out through one Money (portfolio/Money.hpp).

#include "catalog/Catalog.hpp"
#include "currency/RateBook.hpp"
#include "http/Router.hpp"
#include "portfolio/ImportService.hpp"
#include "portfolio/Money.hpp"
#include "portfolio/PortfolioValuer.hpp"
#include "portfolio/ValueSnapshots.hpp"
#include "store/HoldingStore.hpp"

namespace skinpulse::portfolio {

class PortfolioApi {
 public:
  PortfolioApi(portfolio::ImportService& imports, store::HoldingStore& holdings,
               const PortfolioValuer& valuer, ValueSnapshots& snapshots,
               const currency::RateBook& rates, const catalog::Catalog& catalog);

  void registerRoutes(http::Router& router);

  void show(http::Request& request, http::Response& response) const;
  void import(http::Request& request, http::Response& response) const;
  void patchHolding(http::Request& request, http::Response& response) const;
  void history(http::Request& request, http::Response& response) const;
  void csv(http::Request& request, http::Response& response) const;
  /// POST /api/v1/portfolio/cost-basis.csv (docs/api.md §23.3).
  void uploadCostCsv(http::Request& request, http::Response& response) const;

 private:
  /// The Money of this request's answer: its `currency=` (400 invalid_parameter without
  /// a rate), USD by default.
  Money moneyOf(const http::Request& request) const;

  portfolio::ImportService& imports_;
  store::HoldingStore& holdings_;
  const PortfolioValuer& valuer_;
  ValueSnapshots& snapshots_;
  const currency::RateBook& rates_;
  const catalog::Catalog& catalog_;
};

}  // namespace skinpulse::portfolio
