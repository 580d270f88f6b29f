#include "items/ItemsOptions.hpp"

namespace skinpulse::items {

const common::OptionTable<ItemsOptions>& itemsOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<ItemsOptions> table = {
      {{"items.history_cache_bytes", T::kInteger, 0, INT64_C(1) << 40, nullptr, "67108864",
        "Bytes of rendered /history and /candles bodies kept in memory, least recently used "
        "evicted first; 0 turns the cache off (docs/architecture.md, History cache)."},
       &ItemsOptions::history_cache_bytes},
      {{"items.history_cache_ttl_seconds", T::kInteger, 1, 86400, nullptr, "60",
        "The longest a cached /history or /candles body is served. Bodies are dropped at "
        "once when a cycle or backfill stores points for their item; this bounds only "
        "changes the daemon is not told of (retention, another instance's writes)."},
       &ItemsOptions::history_cache_ttl_seconds},
  };
  return table;
}

}  // namespace skinpulse::items
