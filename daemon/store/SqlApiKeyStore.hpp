#pragma once

#include "store/ApiKeyStore.hpp"
#include "store/ConnectionPool.hpp"

namespace skinpulse::store {

/// ApiKeyStore on SQLite or PostgreSQL (migrations sqlite/009, postgresql/012).
class SqlApiKeyStore final : public ApiKeyStore {
 public:
  explicit SqlApiKeyStore(ConnectionPool& pool) : pool_(pool) {}

  bool createKey(const ApiKeyRecord& key, int max_per_user) override;
  std::vector<ApiKeyRecord> keysOf(const std::string& user_id) override;
  bool revokeKey(const std::string& user_id, const std::string& id) override;
  std::vector<ActiveApiKey> activeKeys() override;
  void addUsage(const std::vector<ApiKeyUsage>& usage) override;

 private:
  ConnectionPool& pool_;
};

}  // namespace skinpulse::store
