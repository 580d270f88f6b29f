#pragma once

// ApiKeyStore: users' API keys for the public read API (docs/api.md, "API keys and read
// budgets"; docs/adr/0028-api-keys-and-read-budgets.md). Only the SHA-256 of a key is
// kept; the key itself is shown once, at creation, and never stored. Usage counts arrive
// in batches from each daemon's in-process counters (addUsage), not a write per request.
// Thread-safe.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store {

struct ApiKeyRecord {
  std::string id;           ///< UUID
  std::string user_id;      ///< the holder
  std::string name;         ///< the holder's label
  std::string prefix;       ///< the key's first characters, for display
  std::string secret_hash;  ///< hex(SHA-256(key))
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_used_at;
  std::int64_t requests = 0;      ///< reads counted under the key (flushed batches)
  std::int64_t rate_limited = 0;  ///< reads refused under the key's budget
};

/// What a daemon needs to recognise a presented key: its hash, and whose it is.
struct ActiveApiKey {
  std::string id;
  std::string user_id;
  std::string secret_hash;
};

/// One key's usage counted by a daemon since its last flush.
struct ApiKeyUsage {
  std::string id;
  std::int64_t requests = 0;
  std::int64_t rate_limited = 0;
  std::int64_t last_used_at = 0;  ///< Unix seconds
};

class ApiKeyStore {
 public:
  virtual ~ApiKeyStore() = default;

  /// Inserts `key` unless its holder already has `max_per_user` keys: false then, nothing
  /// written. The count and the insert are one transaction (two daemons cannot both add
  /// the last one).
  virtual bool createKey(const ApiKeyRecord& key, int max_per_user) = 0;
  /// The user's keys, oldest first.
  virtual std::vector<ApiKeyRecord> keysOf(const std::string& user_id) = 0;
  /// Deletes the user's key `id`; false when the user has no such key.
  virtual bool revokeKey(const std::string& user_id, const std::string& id) = 0;
  /// Every key, for the daemons' in-process directory.
  virtual std::vector<ActiveApiKey> activeKeys() = 0;
  /// Adds the counts to their keys (a key revoked meanwhile is skipped) and moves
  /// last_used_at forward, never back.
  virtual void addUsage(const std::vector<ApiKeyUsage>& usage) = 0;
};

}  // namespace skinpulse::store
