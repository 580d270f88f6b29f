#include "prices/HistoryCache.hpp"

#include <algorithm>

namespace skinpulse::prices {
namespace {

// What an entry costs beside its body and key: the list node, the map node, the key's
// copy in the map and the shared body's control block, roughly.
constexpr std::size_t kEntryOverhead = 160;

}  // namespace

HistoryCache::HistoryCache(HistoryCacheOptions options) : options_(options) {}

std::size_t HistoryCache::stripeOf(std::int64_t item_id) {
  return static_cast<std::size_t>(static_cast<std::uint64_t>(item_id) % kStripes);
}

HistoryCache::Body HistoryCache::find(std::int64_t item_id, const std::string& variant,
                                      std::int64_t now, bool count_miss) {
  std::lock_guard lock(mutex_);
  const auto it = index_.find(Key{item_id, variant});
  if (it == index_.end()) {
    if (count_miss) ++stats_.misses;
    return nullptr;
  }
  const auto entry = it->second;
  if (now < entry->filled_at || now >= entry->expires_at) {
    eraseLocked(entry);
    if (count_miss) ++stats_.misses;
    return nullptr;
  }
  lru_.splice(lru_.begin(), lru_, entry);
  ++stats_.hits;
  return entry->body;
}

HistoryCache::Ticket HistoryCache::ticket(std::int64_t item_id) const {
  std::lock_guard lock(mutex_);
  return Ticket{item_id, generations_[stripeOf(item_id)], epoch_};
}

bool HistoryCache::fill(const Ticket& ticket, const std::string& variant, const Rendered& rendered,
                        std::int64_t now) {
  if (!enabled() || !rendered.body) return false;
  const std::size_t bytes = rendered.bytes + variant.size() + kEntryOverhead;
  if (bytes > options_.max_bytes) return false;
  std::lock_guard lock(mutex_);
  if (ticket.epoch != epoch_ || ticket.item_generation != generations_[stripeOf(ticket.item_id)]) {
    ++stats_.stale_fills;
    return false;
  }
  const std::int64_t ttl_end =
      now > INT64_MAX - options_.ttl_seconds ? INT64_MAX : now + options_.ttl_seconds;
  const std::int64_t expires_at = std::min(rendered.valid_until, ttl_end);
  if (expires_at <= now) return false;
  Key key{ticket.item_id, variant};
  if (const auto old = index_.find(key); old != index_.end()) eraseLocked(old->second);
  lru_.push_front(Entry{key, rendered.body, now, expires_at, bytes});
  index_.emplace(std::move(key), lru_.begin());
  stats_.bytes += bytes;
  ++stats_.entries;
  ++stats_.fills;
  evictLocked();
  return true;
}

HistoryCache::Body HistoryCache::get(std::int64_t item_id, const std::string& variant,
                                     std::int64_t now, const std::function<Rendered()>& render,
                                     bool count_miss) {
  if (auto body = find(item_id, variant, now, count_miss)) return body;
  const Ticket taken = ticket(item_id);
  Rendered rendered = render();
  fill(taken, variant, rendered, now);
  return std::move(rendered.body);
}

void HistoryCache::invalidate(const std::vector<std::int64_t>& item_ids) {
  std::lock_guard lock(mutex_);
  for (const std::int64_t item : item_ids) {
    ++generations_[stripeOf(item)];
    auto it = index_.lower_bound(Key{item, std::string()});
    while (it != index_.end() && it->first.first == item) {
      const auto entry = it->second;
      ++it;
      eraseLocked(entry);
    }
  }
}

void HistoryCache::invalidateAll() {
  std::lock_guard lock(mutex_);
  ++epoch_;
  index_.clear();
  lru_.clear();
  stats_.bytes = 0;
  stats_.entries = 0;
}

HistoryCacheStats HistoryCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void HistoryCache::eraseLocked(Lru::iterator entry) {
  stats_.bytes -= entry->bytes;
  --stats_.entries;
  index_.erase(entry->key);
  lru_.erase(entry);
}

void HistoryCache::evictLocked() {
  while (stats_.bytes > options_.max_bytes && !lru_.empty()) {
    eraseLocked(std::prev(lru_.end()));
    ++stats_.evictions;
  }
}

}  // namespace skinpulse::prices
