#pragma once

// GET /api/v1/items/:id/candles?window=&interval=&source=&currency= (docs/api.md §10).
// Reads the item's points of the window from the store and folds them into candles.
// Without `source` the reference source of §3.1 is used (null and [] without one).

#include "catalog/Catalog.hpp"
#include "http/Router.hpp"
#include "prices/LatestPrices.hpp"
#include "store/PriceStore.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace skinpulse::metrics {

struct CandlesApiConfig {
  std::vector<std::string> configured_reference_sources;  ///< [metrics] reference_sources
  std::vector<std::string> enabled_sources;               ///< in configuration order
};

class CandlesApi {
 public:
  using Clock = std::function<std::int64_t()>;

  /// `clock` gives the current time in seconds (tests pass a fixed one).
  CandlesApi(const Catalog& catalog, const LatestPrices& latest, PriceStore& prices,
             CandlesApiConfig config, Clock clock = {});

  void registerRoutes(http::Router& router);

  void candles(http::Request& request, http::Response& response) const;

 private:
  const Catalog& catalog_;
  const LatestPrices& latest_;
  PriceStore& prices_;
  CandlesApiConfig config_;
  Clock clock_;
};

}  // namespace skinpulse::metrics
