#pragma once

// KeyDirectory: this daemon's copy of the API keys (hash → key id and holder) and the
// usage counted under each since the last flush. The request guard asks it on the HTTP
// event loops, so a lookup is a hash-map find under a shared lock and a count is an
// atomic add: the database is read only by reload() and written only by flush(), both on
// the module's background task (docs/adr/0028-api-keys-and-read-budgets.md).
//
// Freshness: the daemon that creates or revokes a key updates its copy at once (added,
// removed); every other daemon learns of it at its next reload, [api] key_cache_seconds
// later at most. Usage counted here reaches the database at the next flush
// ([api] usage_flush_seconds); pendingUsage() lets this daemon's GET /api/v1/keys show
// it before then.

#include "store/ApiKeyStore.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace skinpulse::access {

class KeyDirectory {
 public:
  /// Counters of one key; shared by the snapshots that know the key.
  struct Usage {
    std::atomic<std::int64_t> pending_requests{0};  ///< since the last flush
    std::atomic<std::int64_t> pending_limited{0};
    std::atomic<std::int64_t> last_used_at{0};    ///< Unix seconds; 0: not since start
    std::atomic<std::int64_t> total_requests{0};  ///< since start: /metrics
    std::atomic<std::int64_t> total_limited{0};
  };
  struct Entry {
    std::string id;
    std::string user_id;
    std::shared_ptr<Usage> usage;
  };

  explicit KeyDirectory(store::ApiKeyStore& store);

  /// The key whose hash is `hash`, or null.
  std::shared_ptr<const Entry> find(const std::string& hash) const;
  /// Whether a reload ever succeeded: before that, an unknown key proves nothing.
  bool loaded() const { return loaded_.load(std::memory_order_acquire); }

  /// Replaces the copy with the database's keys, keeping the counters of the keys still
  /// there. Throws what the store throws (the old copy stays).
  void reload();
  /// A key this daemon just created / revoked.
  void added(const store::ActiveApiKey& key);
  void removed(const std::string& id);

  /// Counts one read of `entry` at `now_seconds`, refused or not.
  static void count(const Entry& entry, bool refused, std::int64_t now_seconds);

  /// Writes the pending counts to the database (one batch); on failure they are kept for
  /// the next flush. Throws what the store throws.
  void flush();
  /// What this daemon counted for key `id` since its last flush (zeros when unknown).
  store::ApiKeyUsage pendingUsage(const std::string& id) const;

  /// Every known key's totals since start, for /metrics.
  struct Totals {
    std::string id;
    std::int64_t requests = 0;
    std::int64_t rate_limited = 0;
  };
  std::vector<Totals> totals() const;

 private:
  using ByHash = std::unordered_map<std::string, std::shared_ptr<const Entry>>;

  std::shared_ptr<Usage> usageOf(const std::string& id) const;  ///< lock held by caller

  store::ApiKeyStore& store_;
  mutable std::shared_mutex mutex_;
  ByHash by_hash_;
  // What this daemon created or revoked while a reload may have been reading the keys: a
  // reload whose read began before the change must not undo it here. Each change keeps
  // the generation it was made in; a reload settles the changes made before its read
  // began (the database shows them, or shows what another daemon did since).
  std::uint64_t generation_ = 0;
  std::unordered_map<std::string, std::pair<store::ActiveApiKey, std::uint64_t>> pending_added_;
  std::unordered_map<std::string, std::uint64_t> pending_removed_;  ///< id → generation
  std::atomic<bool> loaded_{false};
};

}  // namespace skinpulse::access
