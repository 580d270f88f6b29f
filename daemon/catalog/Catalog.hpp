#pragma once

// Catalog: the in-memory item catalogue every request reads. The catalogue is small
// (~35k items) and changes rarely, so it lives in an immutable snapshot with each item's
// JSON pre-rendered; readers take the current snapshot without locking against writers,
// and a change publishes a new snapshot (copy-on-write).

#include "skinpulse/sdk/host.hpp"

#include "store/Records.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace skinpulse::catalog {

struct CatalogItemView {
  store::ItemRecord record;
  std::string lower_name;         ///< Unicode lower-case name, for `q` searches
  std::string lower_weapon_type;  ///< lower-case, for the case-insensitive equality filters
  std::string lower_rarity;
  std::string json;  ///< the Item object as served
  /// A base item's variant items (docs/api.md §18), in sdk::kVariantNames order; empty for
  /// other items and for the variant items themselves.
  std::vector<const CatalogItemView*> variants;

  bool isVariant() const { return !record.variant.empty(); }
};

class CatalogSnapshot {
 public:
  explicit CatalogSnapshot(std::vector<store::ItemRecord> records);
  /// Ids and names only, for matching (a backfill): no search fields, no rendered JSON,
  /// about a third of the time to build. Pages and searches of it are not meaningful.
  static std::unique_ptr<const CatalogSnapshot> forMatching(std::vector<store::ItemRecord> records);

  /// Every item, variants included, ordered by id.
  const std::vector<CatalogItemView>& items() const { return items_; }
  /// The base items only (what GET /api/v1/items lists by default), ordered by id.
  const std::vector<const CatalogItemView*>& baseItems() const { return bases_; }
  const CatalogItemView* findById(std::int64_t id) const;
  /// The base item of the name: never a variant item.
  const CatalogItemView* findByName(std::string_view market_hash_name) const;
  /// The variant item (`variant` as sdk::kVariantNames spells it) of the name, or null.
  const CatalogItemView* findVariant(std::string_view market_hash_name,
                                     std::string_view variant) const;

  /// The JSON array body of an unfiltered page, rendered once per snapshot and shared:
  /// the default list pages are the hottest responses of the API. `with_variants`: the
  /// page of every item, variants included; else of the base items.
  std::shared_ptr<const std::string> unfilteredPage(std::size_t offset, std::size_t limit,
                                                    bool with_variants = false) const;

 private:
  // Distinct (offset, limit) pairs are unbounded in number: cap the cache by bytes so
  // no client can grow it (the default pages of a 35k catalogue take ~14 MB).
  static constexpr std::size_t kMaxCachedBytes = 32u * 1024u * 1024u;

  enum class Fields { kAll, kMatching };
  CatalogSnapshot(std::vector<store::ItemRecord> records, Fields fields);

  std::vector<CatalogItemView> items_;  ///< ordered by id
  std::vector<const CatalogItemView*> bases_;
  std::unordered_map<std::int64_t, std::size_t> by_id_;
  // Looked up by string_view without building a std::string (C++20 heterogeneous lookup).
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const {
      return std::hash<std::string_view>{}(name);
    }
  };
  std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> by_name_;
  /// Variant items by name + '\x1f' + variant: a few thousand entries.
  std::unordered_map<std::string, std::size_t, NameHash, std::equal_to<>> by_variant_;
  mutable std::mutex pages_mutex_;
  mutable std::map<std::tuple<std::size_t, std::size_t, bool>, std::shared_ptr<const std::string>>
      pages_;
  mutable std::size_t cached_bytes_ = 0;
};

/// `[item, item, ...]` from pre-rendered items.
std::string renderItemArray(const std::vector<const CatalogItemView*>& items);

/// Filters and paging of GET /api/v1/items, already validated.
struct ItemQuery {
  // Every text filter is lower-cased with lowerUtf8() by the caller.
  std::optional<std::string> q;
  std::optional<std::string> weapon_type;
  std::optional<std::string> rarity;
  std::optional<bool> stattrak;
  /// true: variant items are listed too (`variants=true`); else base items only.
  bool variants = false;
  std::size_t limit = 50;
  std::size_t offset = 0;
};

struct ItemPage {
  std::vector<const CatalogItemView*> items;
  std::size_t total = 0;
};

class Catalog final : public sdk::Catalog {
 public:
  /// Replaces the whole catalogue (at start, after seeding).
  void reset(std::vector<store::ItemRecord> records);

  std::shared_ptr<const CatalogSnapshot> snapshot() const;

  /// Runs `query` against one snapshot; the page's pointers live as long as `snapshot`.
  static ItemPage query(const CatalogSnapshot& snapshot, const ItemQuery& query);

  // sdk::Catalog, for plugins: names are base items (a plugin quotes a name and says its
  // variant, sdk::VariantQuote); findById answers variant ids too; size() and forEach()
  // count and visit base items only; heldItemIds() names the base of a held variant.
  std::optional<sdk::CatalogItem> findByName(std::string_view market_hash_name) const override;
  std::optional<sdk::CatalogItem> findById(std::int64_t id) const override;
  std::size_t size() const override;
  void forEach(const std::function<bool(const sdk::CatalogItem&)>& visit) const override;
  std::vector<std::int64_t> heldItemIds() const override;

  /// Where heldItemIds() looks (the holdings in the database); set once before plugins
  /// poll. Unset: nobody holds anything.
  void setHeldItems(std::function<std::vector<std::int64_t>()> source) {
    held_items_ = std::move(source);
  }

 private:
  // A mutex, not std::atomic<std::shared_ptr>: libstdc++ 12 implements the latter with a
  // spin lock that burns whole time slices when its holder is preempted (seen as 60-240 ms
  // p99 stalls under load, bench/README.md). The critical section is one refcount copy.
  mutable std::mutex mutex_;
  std::shared_ptr<const CatalogSnapshot> current_ =
      std::make_shared<const CatalogSnapshot>(std::vector<store::ItemRecord>{});
  std::function<std::vector<std::int64_t>()> held_items_;
};

/// Unicode-aware lower case (for case-insensitive search).
std::string lowerUtf8(const std::string& text);

}  // namespace skinpulse::catalog
