#pragma once

// GET /api/v1/portfolio and POST /api/v1/portfolio/import (docs/api.md "Portfolio",
// docs/api.md §6). Both routes are RequireAuth; the RequestGuard has checked the
// session and, for the POST, the CSRF token before a handler runs. The import's own
// preconditions and its failures map to the problem codes of docs/api.md §2 here.

#include "catalog/Catalog.hpp"
#include "http/Router.hpp"
#include "portfolio/ImportService.hpp"
#include "prices/LatestPrices.hpp"
#include "store/HoldingStore.hpp"

#include <string>
#include <vector>

namespace skinpulse::portfolio {

struct PortfolioApiOptions {
  std::vector<std::string> configured_reference_sources;
  std::vector<std::string> enabled_sources;  ///< in configuration order
  bool exclude_outliers = true;              ///< [quality] exclude_outliers
};

class PortfolioApi {
 public:
  PortfolioApi(portfolio::ImportService& imports, HoldingStore& holdings, const Catalog& catalog,
               const LatestPrices& latest, PortfolioApiOptions config);

  void registerRoutes(http::Router& router);

  void show(http::Request& request, http::Response& response) const;
  void import(http::Request& request, http::Response& response) const;

 private:
  portfolio::ImportService& imports_;
  HoldingStore& holdings_;
  const Catalog& catalog_;
  const LatestPrices& latest_;
  PortfolioApiOptions config_;
};

}  // namespace skinpulse::portfolio
