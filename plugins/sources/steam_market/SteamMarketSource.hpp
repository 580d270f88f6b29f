#pragma once

// steam_market, two modes (README.md):
// - priceoverview (the default): GET {url}/market/priceoverview/?appid=730&currency=1&
//   market_hash_name=... one item per request. Items come from the `items` key (comma
//   list) or, when it is absent, from the host's catalogue in id order.
// - search: GET {url}/market/search/render/?appid=730&norender=1&currency=1&start=N&count=10
//   &sort_column=name&sort_dir=asc, every listed item's lowest ask, listings and image, ten
//   per page. The offset survives between fetches; a page that comes back empty before
//   total_count is Steam throttling, not the end: the instance backs off (60 s doubling).
// Either way a rotating cursor survives between fetches, and one fetch() sends at most
// `requests_per_minute` requests, so with interval_seconds >= 60 the instance never
// exceeds that rate; the daemon's shared game-platform budget paces them further.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include "SourceSupport.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugins::steam_market {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    {"url", "base address of the Steam Community site, e.g. https://steamcommunity.com", 1},
    {"items",
     "comma-separated market_hash_names to poll; when absent the catalogue is rotated by id", 0},
    {"requests_per_minute",
     "most requests one poll sends (default 20); keep interval_seconds >= 60", 0},
    {"mode",
     "priceoverview (default: one item per request) or search (bulk: every listed item, "
     "page_size per request)",
     0},
    {"page_size", "search mode: items per page, 1-100 (default 10, as Steam's own pages)", 0},
    {"throttle_seconds",
     "search mode: first hold-off after an empty page or a 429 without Retry-After, doubling "
     "while it repeats (default 60)",
     0},
    {"max_bytes", "largest accepted response in bytes (default 65536; search: 1048576)", 0},
    {"request_timeout_seconds", "timeout of each HTTP request in seconds (default 30)", 0},
};

/// "1,247" -> 1247 (',', '.', spaces and NBSP are thousands separators); nullopt if not a count.
std::optional<std::int64_t> parseVolume(std::string_view text);

class SteamMarketSource final : public sdk::ReportingSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit SteamMarketSource(sdk::Host& host);

  sdk::PollReport poll() override;

  /// The priceoverview URL for one market_hash_name.
  std::string urlFor(std::string_view market_hash_name) const;
  /// The search/render URL of the page starting at `start` (search mode).
  std::string searchUrl(std::int64_t start) const;
  /// Search mode: the offset the next fetch starts at.
  std::int64_t searchStart() const { return search_start_; }

 private:
  struct Target {
    std::string name;
    std::int64_t catalog_id = 0;  ///< 0 for items from the `items` key
    bool held = false;            ///< chosen because someone holds it
  };
  std::vector<Target> nextBatch() const;
  void advancePast(const Target& target);
  sdk::PollReport fetchPriceOverview();
  sdk::PollReport fetchSearch();

  sdk::Host& host_;
  std::string base_url_;
  std::vector<std::string> items_;  ///< from the `items` key; empty: rotate the catalogue
  std::size_t requests_per_fetch_ = 20;
  std::size_t max_bytes_ = 64 * 1024;
  std::chrono::milliseconds timeout_{30000};
  // Rotation cursors: the next index into items_; else the last held id and the last
  // catalogue id requested (held items rotate among themselves when they are more than
  // one poll's worth).
  std::size_t next_index_ = 0;
  std::int64_t last_held_id_ = 0;
  std::int64_t last_catalog_id_ = 0;
  // Search mode: the offset of the next page, the last total_count seen, how many
  // throttled pages came in a row (the back-off doubles with each) and until when the
  // instance holds off.
  bool search_mode_ = false;
  std::int64_t page_size_ = 10;
  std::int64_t throttle_seconds_ = 60;
  std::int64_t search_start_ = 0;
  std::int64_t search_total_ = 0;
  int throttled_in_a_row_ = 0;
  std::int64_t not_before_ms_ = 0;
};

}  // namespace skinpulse::plugins::steam_market
