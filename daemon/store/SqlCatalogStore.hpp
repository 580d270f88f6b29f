#pragma once

#include "store/CatalogStore.hpp"
#include "store/ConnectionPool.hpp"

namespace skinpulse::store {

/// CatalogStore on SQLite or PostgreSQL.
class SqlCatalogStore final : public CatalogStore {
 public:
  explicit SqlCatalogStore(ConnectionPool& pool) : pool_(pool) {}

  SeedResult seed(const std::vector<CatalogEntry>& entries, std::int64_t now) override;
  std::vector<ItemRecord> allItems() override;
  std::vector<ItemRecord> itemNames() override;
  std::optional<ItemRecord> findById(std::int64_t id) override;
  std::optional<ItemRecord> findByName(const std::string& market_hash_name) override;
  std::size_t fillMissingImages(const std::vector<ItemImage>& images) override;

 private:
  ConnectionPool& pool_;
};

}  // namespace skinpulse::store
