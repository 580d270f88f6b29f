#pragma once

// ItemsOptions: what the items feature reads of the configuration: the [items] keys of
// its table (itemsOptionTable), and what app/ fills in from the validated Settings.

#include "common/OptionTable.hpp"
#include "prices/Freshness.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::items {

struct ItemsOptions {
  std::string base_url;                        ///< for Link headers
  std::vector<std::string> reference_sources;  ///< [metrics] reference_sources
  std::vector<std::string> enabled_sources;    ///< in configuration order
  prices::Freshness freshness;                ///< of every source (docs/api.md §12)
  bool exclude_outliers = true;                ///< [quality] exclude_outliers
  /// [items] history_cache_bytes: rendered /history and /candles bodies kept in memory.
  std::int64_t history_cache_bytes = std::int64_t{64} << 20;
  /// [items] history_cache_ttl_seconds: the longest a cached body is served.
  std::int64_t history_cache_ttl_seconds = 60;
};

const OptionTable<ItemsOptions>& itemsOptionTable();

}  // namespace skinpulse::items
