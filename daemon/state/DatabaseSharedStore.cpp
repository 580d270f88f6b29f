#include "state/DatabaseSharedStore.hpp"

#include "common/Time.hpp"
#include "state/WindowLog.hpp"
#include "store/Errors.hpp"
#include "store/WriteTransaction.hpp"

#include <Poco/Exception.h>

#include <stdexcept>
#include <vector>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::state {
namespace {

constexpr std::int64_t kPurgeEveryMs = 60'000;

// A live row: no expiry, or one still in the future.
constexpr const char* kLive = "(expires_at IS NULL OR expires_at > ?)";

// Runs `op`, turning any failure of the database into StoreUnavailable. Logic errors
// (std::invalid_argument for a non-integer counter) pass through unchanged.
template <typename Op>
auto guarded(const char* what, Op op) -> decltype(op()) {
  try {
    return op();
  } catch (const std::logic_error&) {
    throw;
  } catch (const StoreUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    throw StoreUnavailable(std::string("embedded shared store: ") + what +
                           " failed: " + store::describe(e));
  }
}

std::int64_t parseCounter(const std::string& key, const std::string& text) {
  if (text.empty()) return 0;
  std::size_t used = 0;
  std::int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size()) throw std::invalid_argument("'" + key + "' does not hold an integer");
  return value;
}

}  // namespace

DatabaseSharedStore::DatabaseSharedStore(store::ConnectionPool& pool, Clock clock)
    : pool_(pool), clock_(clock ? std::move(clock) : Clock([] { return time::nowMillis(); })) {}

std::int64_t DatabaseSharedStore::expiry(Ttl ttl) const {
  return ttl.count() > 0 ? nowMs() + ttl.count() : 0;
}

bool DatabaseSharedStore::ping() {
  try {
    auto lease = pool_.read();
    int one = 0;
    lease.session() << "SELECT 1", into(one), now;
    return one == 1;
  } catch (const std::exception&) {
    return false;
  }
}

std::optional<std::string> DatabaseSharedStore::get(const std::string& key) {
  return guarded("get", [&]() -> std::optional<std::string> {
    std::vector<std::string> values;
    const std::int64_t at = nowMs();
    auto lease = pool_.read();
    lease.session() << pool_.sql(std::string("SELECT value FROM kv WHERE key = ? AND ") + kLive),
        into(values), bind(key), bind(at), now;
    if (values.empty()) return std::nullopt;
    return values.front();
  });
}

void DatabaseSharedStore::set(const std::string& key, const std::string& value, Ttl ttl) {
  guarded("set", [&] {
    const std::int64_t expires = expiry(ttl);
    maybePurge(nowMs());
    auto lease = pool_.write();
    lease.session() << pool_.sql(
        "INSERT INTO kv (key, value, expires_at) VALUES (?, ?, NULLIF(CAST(? AS BIGINT), 0)) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at"),
        bind(key), bind(value), bind(expires), now;
  });
}

bool DatabaseSharedStore::setIfAbsent(const std::string& key, const std::string& value, Ttl ttl) {
  return guarded("set-if-absent", [&] {
    const std::int64_t at = nowMs();
    const std::int64_t expires = expiry(ttl);
    maybePurge(at);
    std::vector<std::string> created;
    auto lease = pool_.write();
    // Replaces only an expired row; a live one makes the update's WHERE false, so
    // nothing is returned. The row lock of the conflict makes concurrent callers queue.
    lease.session() << pool_.sql(
        "INSERT INTO kv (key, value, expires_at) VALUES (?, ?, NULLIF(CAST(? AS BIGINT), 0)) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at "
        "WHERE kv.expires_at IS NOT NULL AND kv.expires_at <= ? RETURNING key"),
        into(created), bind(key), bind(value), bind(expires), bind(at), now;
    return !created.empty();
  });
}

bool DatabaseSharedStore::remove(const std::string& key) {
  return guarded("delete", [&] {
    const std::int64_t at = nowMs();
    std::vector<std::int64_t> expires;
    auto lease = pool_.write();
    lease.session() << pool_.sql("DELETE FROM kv WHERE key = ? RETURNING COALESCE(expires_at, 0)"),
        into(expires), bind(key), now;
    return !expires.empty() && (expires.front() == 0 || expires.front() > at);
  });
}

std::optional<std::string> DatabaseSharedStore::take(const std::string& key) {
  return guarded("take", [&]() -> std::optional<std::string> {
    const std::int64_t at = nowMs();
    std::vector<std::string> values;
    std::vector<std::int64_t> expires;
    auto lease = pool_.write();
    lease.session() << pool_.sql(
        "DELETE FROM kv WHERE key = ? RETURNING value, COALESCE(expires_at, 0)"),
        into(values), into(expires), bind(key), now;
    if (values.empty() || (expires.front() != 0 && expires.front() <= at)) return std::nullopt;
    return values.front();
  });
}

std::optional<std::int64_t> DatabaseSharedStore::ttlLeft(const std::string& key) {
  return guarded("ttl", [&]() -> std::optional<std::int64_t> {
    const std::int64_t at = nowMs();
    std::vector<std::int64_t> expires;
    auto lease = pool_.read();
    lease.session() << pool_.sql(std::string("SELECT COALESCE(expires_at, 0) FROM kv WHERE "
                                             "key = ? AND ") +
                                 kLive),
        into(expires), bind(key), bind(at), now;
    if (expires.empty()) return std::nullopt;
    return expires.front() == 0 ? 0 : expires.front() - at;
  });
}

namespace {

// The row of `key` inside `tx`, locked against concurrent writers until commit. An absent
// row is created already expired, so there is a row to lock; `live` says whether the
// stored value counts.
struct LockedRow {
  std::string value;
  std::int64_t expires_at = 0;
  bool live = false;
};

LockedRow lockRow(store::WriteTransaction& tx, const std::string& key, std::int64_t at) {
  tx.session() << tx.sql(
      "INSERT INTO kv (key, value, expires_at) VALUES (?, '', ?) ON CONFLICT (key) DO NOTHING"),
      bind(key), bind(at), now;
  std::vector<std::string> values;
  std::vector<std::int64_t> expires;
  const std::string forUpdate = tx.backend() == store::Backend::kPostgres ? " FOR UPDATE" : "";
  tx.session() << tx.sql("SELECT value, COALESCE(expires_at, 0) FROM kv WHERE key = ?" + forUpdate),
      into(values), into(expires), bind(key), now;
  if (values.empty()) throw std::runtime_error("row vanished while locked");
  LockedRow row{values.front(), expires.front(), false};
  row.live = row.expires_at == 0 || row.expires_at > at;
  return row;
}

void writeRow(store::WriteTransaction& tx, const std::string& key, const std::string& value,
              std::int64_t expires_at) {
  tx.session() << tx.sql(
      "UPDATE kv SET value = ?, expires_at = NULLIF(CAST(? AS BIGINT), 0) WHERE key = ?"),
      bind(value), bind(expires_at), bind(key), now;
}

}  // namespace

std::int64_t DatabaseSharedStore::increment(const std::string& key, std::int64_t delta, Ttl ttl) {
  return guarded("increment", [&] {
    const std::int64_t at = nowMs();
    maybePurge(at);
    store::WriteTransaction tx(pool_);
    const LockedRow row = lockRow(tx, key, at);
    const std::int64_t current = row.live ? parseCounter(key, row.value) : 0;
    const std::int64_t next = current + delta;
    const std::int64_t expires = row.live ? row.expires_at : expiry(ttl);
    writeRow(tx, key, std::to_string(next), expires);
    tx.commit();
    return next;
  });
}

WindowDecision DatabaseSharedStore::acquireSlot(const std::string& key, std::int64_t limit,
                                                Ttl window, std::int64_t now_ms) {
  return guarded("sliding window", [&] {
    maybePurge(nowMs());
    store::WriteTransaction tx(pool_);
    const LockedRow row = lockRow(tx, key, nowMs());
    WindowLog log = WindowLog::parse(row.live ? row.value : std::string());
    const WindowDecision decision = log.admit(limit, window.count(), now_ms);
    if (decision.allowed) {
      writeRow(tx, key, log.serialise(), nowMs() + window.count());
      tx.commit();
    }
    return decision;
  });
}

void DatabaseSharedStore::purgeExpired() {
  guarded("purge", [&] {
    const std::int64_t at = nowMs();
    auto lease = pool_.write();
    lease.session() << pool_.sql("DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= ?"),
        bind(at), now;
  });
}

void DatabaseSharedStore::maybePurge(std::int64_t now_ms) {
  std::int64_t last = last_purge_.load();
  if (now_ms - last < kPurgeEveryMs) return;
  if (!last_purge_.compare_exchange_strong(last, now_ms)) return;  // another thread does it
  purgeExpired();
}

}  // namespace skinpulse::state
