#pragma once

// Real shared services over an in-memory SQLite database, for tests that build modules:
// what app/Runtime opens, without plugins or sockets.

#include "module/Services.hpp"
#include "state/SharedStoreFactory.hpp"

#include <memory>
#include <string>

namespace skinpulse::test {

struct ServicesFixture {
  catalog::Catalog catalog;
  prices::LatestPrices latest;
  std::unique_ptr<store::Database> database =
      store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql");
  std::unique_ptr<state::SharedStore> shared_store = state::openSharedStore("", *database);
  prices::HistoryCache history_cache;
  currency::RateBook rates;
  prices::PricePolicy price_policy;
  http::Router router;
  module::Registry registry;
  module::Services services{
      catalog,      latest, *database, *shared_store,           history_cache,       rates,
      price_policy, router, registry,  "http://127.0.0.1:8080", SKINPULSE_SHARE_DIR, ""};
};

}  // namespace skinpulse::test
