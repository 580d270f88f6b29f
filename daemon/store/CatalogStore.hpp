#pragma once

#include "store/Records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace skinpulse::store {

/// The item catalogue. Thread-safe.
class CatalogStore {
 public:
  virtual ~CatalogStore() = default;

  struct SeedResult {
    std::size_t inserted = 0;
    std::size_t updated = 0;  ///< existing names whose other fields changed
    std::size_t unchanged = 0;
  };

  /// Upserts by exact (market_hash_name, variant) in one transaction. Existing items keep
  /// their id and created_at; new items get the next ids after max(id) in the order given.
  /// A variant entry's `variant_of` is the base item of its name, stored or given earlier
  /// in `entries`; without one it throws std::invalid_argument (nothing written).
  /// Idempotent.
  virtual SeedResult seed(const std::vector<CatalogEntry>& entries, std::int64_t now) = 0;

  /// Every item, ordered by id.
  virtual std::vector<ItemRecord> allItems() = 0;
  /// Every item's id and name only (the other fields empty), ordered by id: what matching
  /// names needs (skinpulsectl backfill), at a fraction of allItems()' cost.
  virtual std::vector<ItemRecord> itemNames() { return allItems(); }

  virtual std::optional<ItemRecord> findById(std::int64_t id) = 0;
  /// The base item of the name (never a variant).
  virtual std::optional<ItemRecord> findByName(const std::string& market_hash_name) = 0;

  /// (item id, https image URL) pairs from market sources (docs/adr/0011-sdk-abi-1-2.md):
  /// each fills the image of its item when the item has none; an item with an image keeps
  /// it. One transaction; returns how many items changed.
  using ItemImage = std::pair<std::int64_t, std::string>;
  virtual std::size_t fillMissingImages(const std::vector<ItemImage>& images) {
    (void)images;
    return 0;
  }
};

}  // namespace skinpulse::store
