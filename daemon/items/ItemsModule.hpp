#pragma once

// ItemsModule: the catalogue and price endpoints (docs/api.md §3): the item list, one
// item, its history. Reads the in-memory catalogue and latest-price cache; only history
// touches the store, on a miss of the history cache.

#include "items/ItemsApi.hpp"
#include "items/ItemsOptions.hpp"
#include "module/Module.hpp"

namespace skinpulse::items {

class ItemsModule final : public module::Module {
 public:
  /// Every reference must outlive the module.
  ItemsModule(const ItemsOptions& options, const Catalog& catalog, const LatestPrices& latest,
              PriceStore& prices, prices::HistoryCache& history_cache,
              const currency::RateBook& rates, const prices::PricePolicy& price_policy)
      : api_(catalog, latest, prices, price_policy, ItemsApiOptions{options.base_url, &rates},
             &history_cache) {}

  std::string_view name() const override { return "items"; }
  void registerRoutes(http::Router& router) override { api_.registerRoutes(router); }

 private:
  ItemsApi api_;
};

}  // namespace skinpulse::items
