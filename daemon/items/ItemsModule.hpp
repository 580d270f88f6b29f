#pragma once

// ItemsModule: the catalogue and price endpoints (docs/api.md §3): the item list, one
// item, its history. Reads the in-memory catalogue and latest-price cache; only history
// touches the store, on a miss of the history cache.

#include "items/ItemsApi.hpp"
#include "items/ItemsOptions.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"

namespace skinpulse::items {

class ItemsModule final : public module::Module {
 public:
  /// Reads the shared catalogue, latest prices, history cache and rate book, by the
  /// price policy. `options`: [items] (its cache sizes are app/'s, which builds the cache).
  ItemsModule(module::Services& services, const ItemsOptions& options)
      : api_(services.catalog, services.latest, services.database.prices(), services.price_policy,
             ItemsApiOptions{services.base_url, &services.rates}, &services.history_cache) {
    (void)options;
  }

  std::string_view name() const override { return "items"; }
  void registerRoutes(http::Router& router) override { api_.registerRoutes(router); }

 private:
  ItemsApi api_;
};

}  // namespace skinpulse::items
