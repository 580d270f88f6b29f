#pragma once

// DatabaseSharedStore: the shared state in the `kv` table of the daemon's own database
// (SQLite or PostgreSQL), used when REDIS_URL is empty. It survives restarts and serves
// one instance (or several on one PostgreSQL).
//
// Row layout: kv(key, value TEXT, expires_at) with expires_at in Unix **milliseconds**
// (NULL: never expires); a row with expires_at <= now is treated as absent and removed
// by a sweep at most once a minute. Single-row operations are one statement each
// (INSERT ... ON CONFLICT / DELETE ... RETURNING); counters and sliding windows lock
// their row (SQLite: BEGIN IMMEDIATE; PostgreSQL: SELECT ... FOR UPDATE). A sliding
// window keeps its admitted times as a comma list in the value: at most `limit` entries.

#include "state/SharedStore.hpp"
#include "store/ConnectionPool.hpp"

#include <atomic>
#include <functional>

namespace skinpulse::state {

class DatabaseSharedStore final : public SharedStore {
 public:
  using Clock = std::function<std::int64_t()>;  ///< Unix milliseconds

  /// `pool` must outlive the store. `clock` defaults to the system clock.
  explicit DatabaseSharedStore(store::ConnectionPool& pool, Clock clock = {});

  std::string backend() const override { return "database"; }
  bool ping() override;
  std::optional<std::string> get(const std::string& key) override;
  void set(const std::string& key, const std::string& value, Ttl ttl) override;
  bool setIfAbsent(const std::string& key, const std::string& value, Ttl ttl) override;
  bool remove(const std::string& key) override;
  std::optional<std::string> take(const std::string& key) override;
  std::optional<std::int64_t> ttlLeft(const std::string& key) override;
  std::int64_t increment(const std::string& key, std::int64_t delta, Ttl ttl) override;
  WindowDecision acquireSlot(const std::string& key, std::int64_t limit, Ttl window,
                             std::int64_t now_ms) override;

  /// Deletes every expired row now (the sweep also runs by itself).
  void purgeExpired();

 private:
  std::int64_t nowMs() const { return clock_(); }
  std::int64_t expiry(Ttl ttl) const;
  void maybePurge(std::int64_t now_ms);

  store::ConnectionPool& pool_;
  Clock clock_;
  std::atomic<std::int64_t> last_purge_{0};
};

}  // namespace skinpulse::state
