#pragma once

// Reads a user's whole inventory from the game platform (docs/upstreams.md §d):
// `{base}/{id64}/730/2?l=english&count=1000`, then `&start_assetid=<last_assetid>` while
// `more_items` is set. Every page goes through the host HTTP client, which enforces the
// timeout and stops reading a body as soon as it passes the byte cap.

#include "skinpulse/sdk/host.hpp"

#include "net/RequestBudget.hpp"
#include "portfolio/InventoryPage.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::portfolio {

struct InventoryFetchOptions {
  std::string base_url = "https://steamcommunity.com/inventory";  ///< no trailing slash needed
  std::size_t max_page_bytes = 8u * 1024u * 1024u;                ///< INVENTORY_MAX_BYTES
  std::chrono::milliseconds page_timeout{20000};
  int max_pages = 50;
  int page_size = 1000;  ///< the platform refuses more than 1000 (400)
};

/// Assets that are alike for a portfolio: the same market_hash_name, paint index and
/// applied stickers and charms (docs/api.md §18 and §23). Identical assets stay one lot;
/// assets that differ in what is applied are lots apart.
struct InventoryLot {
  std::string market_hash_name;
  std::optional<std::int64_t> paint_index = std::nullopt;
  std::vector<AppliedAsset> applied = {};  ///< stickers by slot, then charms

  bool operator==(const InventoryLot&) const = default;
  bool operator<(const InventoryLot& other) const;
};

/// The inventory summed into lots. Each asset id counts once, however often the platform
/// repeats it (pages overlap when the inventory changes while it is read).
struct Inventory {
  std::map<InventoryLot, std::int64_t> units_by_lot;
  /// market_hash_name → the `icon_url` of its first description that has one.
  std::map<std::string, std::string> icon_by_name;
  std::int64_t unnamed_units = 0;  ///< assets without a description or market_hash_name
  std::int64_t assets = 0;         ///< distinct asset ids
  int pages = 0;

  /// Adds `units` to `lot` (the fetcher per asset; tests build inventories with it).
  void add(InventoryLot lot, std::int64_t units);
  /// Units of every lot of `market_hash_name`.
  std::int64_t unitsOf(const std::string& market_hash_name) const;
};

class InventoryFetcher {
 public:
  /// Every page takes a token of `budget` (the game platform's shared request budget)
  /// first, when one is given, at the priority fetch() is told.
  InventoryFetcher(sdk::HttpClient& http, InventoryFetchOptions options,
                   net::RequestBudget* budget = nullptr);

  /// Fetches every page of `platform_id`'s inventory (validated by the caller). Throws
  /// InventoryError: kPrivate (403), kUnavailable (401), kTooLarge (a page over the cap,
  /// or more than max_pages pages: never a silently truncated inventory), kUpstream
  /// (anything else that is not a well-formed 200); net::RequestBudgetExhausted when the
  /// budget has no token for the next page (nothing is sent then).
  Inventory fetch(const std::string& platform_id, net::RequestBudget::Priority priority =
                                                      net::RequestBudget::Priority::kUser) const;

  /// The URL of one page; `start_asset_id` empty for the first.
  std::string pageUrl(const std::string& platform_id, const std::string& start_asset_id) const;

 private:
  sdk::HttpClient& http_;
  InventoryFetchOptions options_;
  net::RequestBudget* budget_;
};

}  // namespace skinpulse::portfolio
