#pragma once

// GET /api/v1/items, /api/v1/items/:id and /api/v1/items/:id/history (docs/api.md §3);
// the last two take `currency=` (§14).
// Reads the in-memory catalogue and latest-price cache; only history touches the store,
// and only when its body is not in the history cache (prices/HistoryCache). The handlers
// are const and thread-safe: any number of server threads may call them at once.

#include "catalog/Catalog.hpp"
#include "common/Json.hpp"
#include "currency/Conversion.hpp"
#include "http/Router.hpp"
#include "prices/HistoryCache.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "store/PriceStore.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::items {

struct ItemsApiOptions {
  std::string base_url;  ///< for Link headers
  /// The rates `currency=` converts with (docs/api.md §14); null: only USD.
  const currency::RateBook* rates = nullptr;
};

class ItemsApi {
 public:
  using Clock = std::function<std::int64_t()>;

  /// `policy` decides the reference order of current_price, which latest prices are
  /// stale and which count in the consensus. Every reference, and `cache` when given,
  /// must outlive the object. Without a cache every history request reads the store.
  /// `clock` gives the current time in seconds (tests pass a fixed one).
  ItemsApi(const catalog::Catalog& catalog, const prices::LatestPrices& latest,
           store::PriceStore& prices, const prices::PricePolicy& policy, ItemsApiOptions config,
           prices::HistoryCache* cache = nullptr, Clock clock = {});

  void registerRoutes(http::Router& router);

  void list(http::Request& request, http::Response& response) const;
  void detail(http::Request& request, http::Response& response) const;
  void history(http::Request& request, http::Response& response) const;

 private:
  const catalog::CatalogItemView& requireItem(const catalog::CatalogSnapshot& snapshot,
                                              const http::Request& request) const;
  std::string nextLink(const http::Request& request, std::size_t next_offset,
                       std::size_t limit) const;
  struct RenderedHistory {
    std::string json;
    std::int64_t oldest = INT64_MAX;  ///< time of the oldest point in it
  };
  /// Reads the store: the points of `id` after `since`, as the /history array.
  RenderedHistory renderHistory(std::int64_t id, std::int64_t since,
                                const std::optional<std::string>& source,
                                const currency::Conversion& money) const;

  const catalog::Catalog& catalog_;
  const prices::LatestPrices& latest_;
  store::PriceStore& prices_;
  const prices::PricePolicy& policy_;
  ItemsApiOptions config_;
  prices::HistoryCache* cache_;
  Clock clock_;
};

/// The history cache's key for a body of /history: window seconds, source filter and the
/// currency with its exact rate (currency::Conversion::cacheTag; "" for plain USD).
std::string historyVariant(std::int64_t window, const std::optional<std::string>& source,
                           const std::string& currency_tag = {});

/// One Price point object; `stale` is written only when given (latest prices). The price
/// in `money`'s currency, and `"currency"` when the request named one.
void writePricePoint(common::JsonWriter& json, const store::PricePoint& point,
                     std::optional<bool> stale = std::nullopt,
                     const currency::Conversion& money = {});

}  // namespace skinpulse::items
