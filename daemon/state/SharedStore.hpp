#pragma once

// SharedStore: the small key-value state that every daemon instance must see the same
// way — sessions, CSRF tokens, login flows, OpenID nonces, rate-limit windows, import
// cooldown locks, leases. Two implementations pass one contract test suite
// (tests/unit/state): DatabaseSharedStore (the `kv` table of the database; survives
// restarts; one instance) and RedisSharedStore (REDIS_URL; shared by every instance).
//
// Every operation is atomic on its own. TTLs are milliseconds; a TTL of zero means
// "never expires". An expired key behaves exactly like an absent one.
//
// Failure: when the backing store cannot be reached or answers garbage, every operation
// throws StoreUnavailable (never returns a guess). Callers fail closed: the HTTP layer
// turns it into 503 store_unavailable.
//
// Thread-safe: one instance serves all HTTP threads.

#include "common/StoreUnavailable.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace skinpulse::state {

using Ttl = std::chrono::milliseconds;

/// The store could not be reached or failed mid-operation (common/StoreUnavailable.hpp).
using skinpulse::common::StoreUnavailable;

/// The answer of SharedStore::acquireSlot().
struct WindowDecision {
  bool allowed = false;
  /// Requests counted in the window after this decision.
  std::int64_t count = 0;
  /// When refused: milliseconds until the oldest counted request leaves the window, so a
  /// retry after that long is admitted (≥ 1).
  std::int64_t retry_after_ms = 0;
};

class SharedStore {
 public:
  virtual ~SharedStore() = default;

  /// "database" or "redis", for logs and /readyz.
  virtual std::string backend() const = 0;
  /// Cheap liveness check; false instead of throwing.
  virtual bool ping() = 0;

  virtual std::optional<std::string> get(const std::string& key) = 0;
  /// Creates or replaces `key`.
  virtual void set(const std::string& key, const std::string& value, Ttl ttl) = 0;
  /// Creates `key` only when it is absent (or expired). True when this call created it:
  /// exactly one of several concurrent callers wins. Locks, nonces, replay keys.
  virtual bool setIfAbsent(const std::string& key, const std::string& value, Ttl ttl) = 0;
  /// Deletes `key`; true when it existed (and had not expired).
  virtual bool remove(const std::string& key) = 0;
  /// Reads and deletes `key` in one step: of several concurrent callers at most one gets
  /// the value. Single-use values (login state).
  virtual std::optional<std::string> take(const std::string& key) = 0;
  /// Milliseconds until `key` expires; nullopt when absent, 0 when it never expires.
  virtual std::optional<std::int64_t> ttlLeft(const std::string& key) = 0;

  /// Adds `delta` to the integer counter `key` (absent: 0) and returns the new value. The
  /// TTL is set when this call creates the counter and left alone otherwise (a fixed
  /// window). A non-integer value at `key` throws std::invalid_argument.
  virtual std::int64_t increment(const std::string& key, std::int64_t delta, Ttl ttl) = 0;

  /// Sliding-window admission: counts the admitted requests of `key` whose time is in
  /// (now_ms − window, now_ms]; when fewer than `limit`, records one at now_ms and admits.
  /// A refused request is not recorded. `now_ms` is Unix milliseconds from the caller's
  /// clock (instances share NTP time; tests move it).
  virtual WindowDecision acquireSlot(const std::string& key, std::int64_t limit, Ttl window,
                                     std::int64_t now_ms) = 0;
};

}  // namespace skinpulse::state
