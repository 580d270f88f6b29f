#include "store/SqlApiKeyStore.hpp"

#include "store/NullableInt.hpp"
#include "store/WriteTransaction.hpp"

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {
namespace {

// Serialises key creation across PostgreSQL daemons, so the per-user count and the insert
// cannot interleave (SQLite's write transactions are exclusive already). Arbitrary, fixed.
constexpr std::int64_t kCreateKeyLockKey = 0x6170696b657973;  // "apikeys"

}  // namespace

bool SqlApiKeyStore::createKey(const ApiKeyRecord& key, int max_per_user) {
  WriteTransaction tx(pool_);
  tx.lockAdvisory(kCreateKeyLockKey);
  std::int64_t held = 0;
  tx.session() << tx.sql("SELECT COUNT(*) FROM api_keys WHERE user_id = ?"), into(held),
      bind(key.user_id), now;
  if (held >= max_per_user) return false;  // the destructor rolls back
  tx.session() << tx.sql(
      "INSERT INTO api_keys (id, user_id, name, prefix, secret_hash, created_at) "
      "VALUES (?, ?, ?, ?, ?, ?)"),
      bind(key.id), bind(key.user_id), bind(key.name), bind(key.prefix), bind(key.secret_hash),
      bind(key.created_at), now;
  tx.commit();
  return true;
}

std::vector<ApiKeyRecord> SqlApiKeyStore::keysOf(const std::string& user_id) {
  auto lease = pool_.read();
  std::vector<std::string> id, user, name, prefix, hash;
  std::vector<std::int64_t> created_at, requests, rate_limited;
  std::vector<NullableInt> last_used_at;
  lease.session() << pool_.sql(
      "SELECT id, user_id, name, prefix, secret_hash, created_at, last_used_at, requests, "
      "rate_limited FROM api_keys WHERE user_id = ? ORDER BY created_at, id"),
      into(id), into(user), into(name), into(prefix), into(hash), into(created_at),
      into(last_used_at), into(requests), into(rate_limited), bind(user_id), now;
  std::vector<ApiKeyRecord> keys;
  keys.reserve(id.size());
  for (std::size_t i = 0; i < id.size(); ++i) {
    keys.push_back({id[i], user[i], name[i], prefix[i], hash[i], created_at[i],
                    optionalOf(last_used_at[i]), requests[i], rate_limited[i]});
  }
  return keys;
}

bool SqlApiKeyStore::revokeKey(const std::string& user_id, const std::string& id) {
  WriteTransaction tx(pool_);
  Poco::Data::Statement statement(tx.session());
  statement << tx.sql("DELETE FROM api_keys WHERE id = ? AND user_id = ?"), bind(id), bind(user_id);
  const std::size_t deleted = statement.execute();
  tx.commit();
  return deleted > 0;
}

std::vector<ActiveApiKey> SqlApiKeyStore::activeKeys() {
  auto lease = pool_.read();
  std::vector<std::string> id, user, hash;
  lease.session() << "SELECT id, user_id, secret_hash FROM api_keys", into(id), into(user),
      into(hash), now;
  std::vector<ActiveApiKey> keys;
  keys.reserve(id.size());
  for (std::size_t i = 0; i < id.size(); ++i) keys.push_back({id[i], user[i], hash[i]});
  return keys;
}

void SqlApiKeyStore::addUsage(const std::vector<ApiKeyUsage>& usage) {
  if (usage.empty()) return;
  WriteTransaction tx(pool_);
  for (const auto& key : usage) {
    tx.session() << tx.sql(
        "UPDATE api_keys SET requests = requests + ?, rate_limited = rate_limited + ?, "
        "last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < ? THEN ? "
        "ELSE last_used_at END WHERE id = ?"),
        bind(key.requests), bind(key.rate_limited), bind(key.last_used_at), bind(key.last_used_at),
        bind(key.id), now;
  }
  tx.commit();
}

}  // namespace skinpulse::store
