#pragma once

// Services: what every module is handed (as Envoy hands a filter its ServerFactoryContext,
// and Poco a Util::Subsystem its Application): the services app/ opens once, before any
// module is built, and that outlive every module — the catalogue, the latest prices, the
// database, the shared store, the history cache, the rate book, the price policy, the
// public router — plus the daemon-wide settings several features read, and the registry
// through which modules offer each other capabilities (module/Registry.hpp). The
// plugin-side objects (identity providers, market sources, metric plugins, rates
// instances, the host HTTP client, the game platform's budget) are in the registry too,
// each as the type of the folder that uses it, provided by app/ before any module is
// built. A module keeps what it needs of it; nothing here is owned by a module
// (docs/adr/0024-services-and-module-table.md).

#include "catalog/Catalog.hpp"
#include "currency/RateBook.hpp"
#include "http/Router.hpp"
#include "module/Registry.hpp"
#include "prices/HistoryCache.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "state/SharedStore.hpp"
#include "store/Database.hpp"

#include <string>

namespace skinpulse::module {

struct Services {
  catalog::Catalog& catalog;
  prices::LatestPrices& latest;
  store::Database& database;
  /// Sessions, CSRF, rate limits and import locks (ADR 0006).
  state::SharedStore& shared_store;
  /// Rendered /history and /candles bodies; ingestion drops an item's when it stores points.
  prices::HistoryCache& history_cache;
  /// The newest rate of each currency (docs/api.md §14): the rates module fills it.
  currency::RateBook& rates;
  /// Which prices count and in what order (prices/PricePolicy.hpp), built once by app/.
  const prices::PricePolicy& price_policy;
  /// The public listener's routes; the server module serves them once every module
  /// registered its own.
  http::Router& router;
  Registry& registry;

  // Daemon-wide settings ([daemon] and [storage]) that more than one feature reads.
  std::string base_url;   ///< [daemon] base_url, no trailing slash
  std::string share_dir;  ///< [daemon] share_dir: read-only data (www, openapi, sql)
  std::string redis_url;  ///< [storage] redis_url; empty: this instance only
};

}  // namespace skinpulse::module
