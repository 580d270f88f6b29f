#pragma once

// HistoryCache: response bodies rendered from an item's stored price history
// (/api/v1/items/:id/history and /candles, docs/api.md §3 and §10), kept in memory so a
// request does not read the store. ItemsApi and CandlesApi fill and read it; the
// ingestion cycle (ingest/IngestCycle) invalidates the items it stored points for right
// after the store commit, and a reload from the store (a backfill, a standby catching up)
// empties it.
//
// Contract:
// - An entry is keyed by (item id, variant); the variant is every parameter that selects
//   the body, prefixed by its key space ("h|..." for history, "c|..." for candles).
// - A body is exact while the stored points of its item do not change and the window's
//   lower bound has not passed the oldest point it holds: the caller passes that moment as
//   `valid_until` (see docs/architecture.md, "History cache"). Entries also expire
//   `ttl_seconds` after they were filled, and a body filled at a later time than `now`
//   (a clock step backwards) is not served.
// - A miss takes a Ticket *before* it reads the store and hands it to fill(): a fill whose
//   item was invalidated after the ticket was taken is dropped, so a body read before a
//   cycle stored points never lands in the cache after that cycle's invalidation.
// - Bodies are bounded in bytes (`max_bytes`, 0 turns the cache off): every encoding and
//   file copy of a prepared body counts (Rendered::bytes); the least recently used
//   entries go first; a body larger than the bound is not kept.
// Thread-safe: one mutex, held for map and list updates only, never while rendering.

#include <array>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace skinpulse::prices {

struct HistoryCacheOptions {
  std::size_t max_bytes = 64u << 20;  ///< bodies plus keys and bookkeeping; 0: off
  std::int64_t ttl_seconds = 60;      ///< an entry's longest life, whatever its validity
};

struct HistoryCacheStats {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t fills = 0;
  std::uint64_t stale_fills = 0;  ///< dropped: the item was invalidated during the read
  std::uint64_t evictions = 0;    ///< dropped for the byte bound
  std::size_t entries = 0;
  std::size_t bytes = 0;
};

class HistoryCache {
 public:
  /// What its users keep: an http::PreparedBody for /history and /candles (the cache only
  /// counts its bytes; it sits below the HTTP layer and never looks inside). A key space
  /// holds one type, so its users cast back with std::static_pointer_cast.
  using Body = std::shared_ptr<const void>;

  /// What a miss holds while it reads the store and renders.
  struct Ticket {
    std::int64_t item_id = 0;
    std::uint64_t item_generation = 0;
    std::uint64_t epoch = 0;
  };

  /// A rendered body, the first time (Unix seconds) at which it is no longer exact, and
  /// the memory it holds (counted against `max_bytes`).
  struct Rendered {
    Body body;
    std::int64_t valid_until = INT64_MAX;
    std::size_t bytes = 0;
  };

  explicit HistoryCache(HistoryCacheOptions options = {});

  /// The body of (item, variant) when cached and valid at `now`; null otherwise (counted
  /// as a miss unless `count_miss` is false: a request looked up twice counts once).
  Body find(std::int64_t item_id, const std::string& variant, std::int64_t now,
            bool count_miss = true);
  /// Taken before a miss reads the store.
  Ticket ticket(std::int64_t item_id) const;
  /// Keeps `rendered` unless the ticket's item was invalidated since the ticket was taken.
  /// Returns whether it was kept.
  bool fill(const Ticket& ticket, const std::string& variant, const Rendered& rendered,
            std::int64_t now);

  /// find(), else ticket(), `render()` (outside the lock) and fill(). `render` may throw;
  /// nothing is cached then.
  Body get(std::int64_t item_id, const std::string& variant, std::int64_t now,
           const std::function<Rendered()>& render, bool count_miss = true);

  /// Points of these items were stored: their bodies go, fills in flight are dropped.
  void invalidate(const std::vector<std::int64_t>& item_ids);
  /// The store changed in ways not told item by item (a reload): everything goes.
  void invalidateAll();

  HistoryCacheStats stats() const;
  bool enabled() const { return options_.max_bytes > 0; }

 private:
  using Key = std::pair<std::int64_t, std::string>;
  struct Entry {
    Key key;
    Body body;
    std::int64_t filled_at = 0;
    std::int64_t expires_at = 0;  ///< min(valid_until, filled_at + ttl)
    std::size_t bytes = 0;
  };
  using Lru = std::list<Entry>;

  static constexpr std::size_t kStripes = 4096;
  static std::size_t stripeOf(std::int64_t item_id);
  void eraseLocked(Lru::iterator entry);
  void evictLocked();

  const HistoryCacheOptions options_;
  mutable std::mutex mutex_;
  Lru lru_;  ///< most recently used first
  std::map<Key, Lru::iterator> index_;
  /// Bumped for an item's stripe by invalidate(); a ticket remembers its value. Items that
  /// share a stripe only cost each other a dropped fill, never a stale one.
  std::array<std::uint64_t, kStripes> generations_{};
  std::uint64_t epoch_ = 0;  ///< bumped by invalidateAll()
  HistoryCacheStats stats_;
};

}  // namespace skinpulse::prices
