#pragma once

// ItemsOptions: what the items feature reads of the configuration: the [items] keys of
// its table (itemsOptionTable), and the base URL app/ fills in. Which prices count, and
// in what order, is the price policy's (prices/PricePolicy.hpp), not an option here.

#include "common/OptionTable.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::items {

struct ItemsOptions {
  std::string base_url;  ///< for Link headers
  /// [items] history_cache_bytes: rendered /history and /candles bodies kept in memory.
  std::int64_t history_cache_bytes = std::int64_t{64} << 20;
  /// [items] history_cache_ttl_seconds: the longest a cached body is served.
  std::int64_t history_cache_ttl_seconds = 60;
};

const common::OptionTable<ItemsOptions>& itemsOptionTable();

}  // namespace skinpulse::items
