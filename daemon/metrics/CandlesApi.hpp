#pragma once

// GET /api/v1/items/:id/candles?window=&interval=&source=&currency= (docs/api.md §10).
// Checks the window and interval (metrics/CandlesWindows.hpp), reads the bars from the
// store's raw points or rollups (metrics/CandlesReader.hpp) and renders them; the rendered
// body is kept in the history cache (prices/HistoryCache, key space "c|") when one is
// given, until its first bar's bucket leaves the window. Without `source` the reference
// source of §3.1 is used (null and [] without one). Thread-safe: server threads call
// candles() concurrently.

#include "catalog/Catalog.hpp"
#include "currency/RateBook.hpp"
#include "http/Router.hpp"
#include "metrics/CandlesReader.hpp"
#include "prices/HistoryCache.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "store/PriceStore.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace skinpulse::metrics {

struct CandlesApiConfig {
  /// The rates `currency=` converts with (docs/api.md §14); null: only USD.
  const currency::RateBook* rates = nullptr;
  /// [storage] retention_days: windows inside it may be read from the raw points.
  int retention_days = 30;
};

class CandlesApi {
 public:
  using Clock = std::function<std::int64_t()>;

  /// `policy` decides the reference source and whether flagged points make a bar.
  /// `clock` gives the current time in seconds (tests pass a fixed one). Every reference,
  /// and `cache` when given, must outlive the object; without a cache every request reads
  /// the store.
  CandlesApi(const catalog::Catalog& catalog, const prices::LatestPrices& latest,
             store::PriceStore& prices, const prices::PricePolicy& policy,
             CandlesApiConfig config = {}, Clock clock = {}, prices::HistoryCache* cache = nullptr);

  void registerRoutes(http::Router& router);

  void candles(http::Request& request, http::Response& response) const;

 private:
  const catalog::Catalog& catalog_;
  const prices::LatestPrices& latest_;
  const prices::PricePolicy& policy_;
  CandlesApiConfig config_;
  CandlesReader reader_;
  prices::HistoryCache* cache_;
  Clock clock_;
};

}  // namespace skinpulse::metrics
