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
#include "store/UserStore.hpp"

#include <optional>
#include <string>
#include <vector>

namespace skinpulse::portfolio {

class PortfolioApi {
 public:
  /// `applied_value_percent`: [portfolio] applied_value_percent, the default share of
  /// applied items' value the totals count (docs/api.md §23.1).
  PortfolioApi(portfolio::ImportService& imports, store::HoldingStore& holdings,
               const PortfolioValuer& valuer, ValueSnapshots& snapshots,
               const currency::RateBook& rates, const catalog::Catalog& catalog,
               store::UserStore& users, int applied_value_percent = 0);

  void registerRoutes(http::Router& router);

  void show(http::Request& request, http::Response& response) const;
  void import(http::Request& request, http::Response& response) const;
  void patchHolding(http::Request& request, http::Response& response) const;
  void history(http::Request& request, http::Response& response) const;
  void csv(http::Request& request, http::Response& response) const;
  /// POST /api/v1/portfolio/cost-basis.csv (docs/api.md §23.3).
  void uploadCostCsv(http::Request& request, http::Response& response) const;
  /// PATCH /api/v1/portfolio/left/:departure_id {"sale_price": cents|null} (§23.4).
  void patchLeft(http::Request& request, http::Response& response) const;
  /// DELETE /api/v1/portfolio/left/:departure_id: it was not sold (§23.4).
  void deleteLeft(http::Request& request, http::Response& response) const;

 private:
  /// The Money of this request's answer: its `currency=` (400 invalid_parameter without
  /// a rate), USD by default.
  Money moneyOf(const http::Request& request) const;
  /// The user's game-platform links, oldest first (docs/api.md §23.2).
  std::vector<store::GameLinkRecord> linkedAccounts(const std::string& user_id) const;
  /// `?account=`: empty when absent; 404 not_found when it is not one of `linked`.
  std::optional<std::string> accountFilter(const http::Request& request,
                                           const std::vector<store::GameLinkRecord>& linked) const;
  /// The left routes (PortfolioLeftApi.cpp).
  void registerLeftRoutes(http::Router& router, const http::RouteOptions& with_body,
                          const http::RouteOptions& user_only);
  /// `?applied_value_percent=0..100` (400 invalid_parameter otherwise), else the option.
  int appliedPercentOf(const http::Request& request) const;

  portfolio::ImportService& imports_;
  store::HoldingStore& holdings_;
  const PortfolioValuer& valuer_;
  ValueSnapshots& snapshots_;
  const currency::RateBook& rates_;
  const catalog::Catalog& catalog_;
  store::UserStore& users_;
  int applied_value_percent_;
};

}  // namespace skinpulse::portfolio
