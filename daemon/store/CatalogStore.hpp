#pragma once

#include "store/Records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse {

/// The item catalogue. Thread-safe.
class CatalogStore {
 public:
  virtual ~CatalogStore() = default;

  struct SeedResult {
    std::size_t inserted = 0;
    std::size_t updated = 0;  ///< existing names whose other fields changed
    std::size_t unchanged = 0;
  };

  /// Upserts by exact market_hash_name in one transaction. Existing items keep their id
  /// and created_at; new items get the next ids in the order given. Idempotent.
  virtual SeedResult seed(const std::vector<CatalogEntry>& entries, std::int64_t now) = 0;

  /// Every item, ordered by id.
  virtual std::vector<ItemRecord> allItems() = 0;

  virtual std::optional<ItemRecord> findById(std::int64_t id) = 0;
  virtual std::optional<ItemRecord> findByName(const std::string& market_hash_name) = 0;
};

}  // namespace skinpulse
