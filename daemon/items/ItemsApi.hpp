#pragma once

// GET /api/v1/items, /api/v1/items/:id and /api/v1/items/:id/history (docs/api.md §3).
// Reads the in-memory catalogue and latest-price cache; only history touches the store.

#include "catalog/Catalog.hpp"
#include "common/Json.hpp"
#include "http/Router.hpp"
#include "prices/LatestPrices.hpp"
#include "store/PriceStore.hpp"

#include <string>
#include <vector>

namespace skinpulse::items {

struct ItemsApiOptions {
  std::string base_url;  ///< for Link headers
  std::vector<std::string> configured_reference_sources;
  std::vector<std::string> enabled_sources;  ///< in configuration order
};

class ItemsApi {
 public:
  ItemsApi(const Catalog& catalog, const LatestPrices& latest, PriceStore& prices,
           ItemsApiOptions config);

  void registerRoutes(http::Router& router);

  void list(http::Request& request, http::Response& response) const;
  void detail(http::Request& request, http::Response& response) const;
  void history(http::Request& request, http::Response& response) const;

 private:
  const CatalogItemView& requireItem(const CatalogSnapshot& snapshot,
                                     const http::Request& request) const;
  std::string nextLink(const http::Request& request, std::size_t next_offset,
                       std::size_t limit) const;

  const Catalog& catalog_;
  const LatestPrices& latest_;
  PriceStore& prices_;
  ItemsApiOptions config_;
};

/// One Price point object.
void writePricePoint(JsonWriter& json, const PricePoint& point);

}  // namespace skinpulse::items
