#include "store/SqlCatalogStore.hpp"

#include "store/ItemRows.hpp"
#include "store/WriteTransaction.hpp"

#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace skinpulse::store {
namespace {

bool sameDescription(const ItemRecord& stored, const CatalogEntry& entry) {
  return stored.weapon_type == entry.weapon_type && stored.skin_name == entry.skin_name &&
         stored.rarity == entry.rarity && stored.stattrak == entry.stattrak &&
         stored.image_url == entry.image_url;
}

ItemRecord toRecord(std::int64_t id, const CatalogEntry& entry, std::int64_t created_at,
                    std::optional<std::int64_t> variant_of) {
  ItemRecord record{id,           entry.market_hash_name, entry.weapon_type, entry.skin_name,
                    entry.rarity, entry.stattrak,         entry.image_url,   created_at};
  record.variant = entry.variant;
  record.variant_of = variant_of;
  return record;
}

std::optional<ItemRecord> single(const ItemColumns& columns) {
  if (columns.size() == 0) return std::nullopt;
  return columns.row(0);
}

// An item's identity (docs/api.md §18): its name and its variant ('' for the base).
using ItemKey = std::pair<std::string_view, std::string_view>;
struct ItemKeyHash {
  std::size_t operator()(const ItemKey& key) const {
    const std::size_t h = std::hash<std::string_view>{}(key.first);
    return h ^ (std::hash<std::string_view>{}(key.second) + 0x9e3779b97f4a7c15ULL + (h << 6) +
                (h >> 2));
  }
};

}  // namespace

CatalogStore::SeedResult SqlCatalogStore::seed(const std::vector<CatalogEntry>& entries,
                                               std::int64_t now) {
  // An item listed twice counts once and its last entry wins, like any upsert stream;
  // `order` keeps first appearances so new ids follow the order given.
  std::unordered_map<ItemKey, const CatalogEntry*, ItemKeyHash> wanted;
  std::vector<ItemKey> order;
  wanted.reserve(entries.size());
  order.reserve(entries.size());
  for (const auto& entry : entries) {
    const ItemKey key{entry.market_hash_name, entry.variant};
    auto [it, inserted] = wanted.try_emplace(key, &entry);
    if (inserted) {
      order.push_back(key);
    } else {
      it->second = &entry;
    }
  }

  WriteTransaction tx(pool_);
  // Reading the existing catalogue inside the locked transaction keeps two daemons that
  // seed at the same time from handing out the same ids.
  tx.lockTable("items");
  const ItemColumns stored = selectItems(tx.session(), "");
  std::unordered_map<ItemKey, std::size_t, ItemKeyHash> by_key;
  by_key.reserve(stored.size());
  std::int64_t next_id = 1;
  for (std::size_t i = 0; i < stored.size(); ++i) {
    by_key.emplace(ItemKey{stored.market_hash_name[i], stored.variant[i]}, i);
    next_id = std::max(next_id, stored.id[i] + 1);
  }
  // Base ids of this call's new bases, for their variants.
  std::unordered_map<std::string_view, std::int64_t> new_bases;

  SeedResult result;
  ItemColumns changes;
  for (const ItemKey& key : order) {
    const CatalogEntry& entry = *wanted.at(key);
    std::optional<std::int64_t> base_id;
    if (!entry.variant.empty()) {
      if (const auto base = by_key.find(ItemKey{key.first, ""}); base != by_key.end()) {
        base_id = stored.id[base->second];
      } else if (const auto fresh = new_bases.find(key.first); fresh != new_bases.end()) {
        base_id = fresh->second;
      } else {
        throw std::invalid_argument("catalogue: variant '" + entry.variant + "' of '" +
                                    entry.market_hash_name + "' has no base item");
      }
    }
    const auto found = by_key.find(key);
    if (found == by_key.end()) {
      if (entry.variant.empty()) new_bases.emplace(key.first, next_id);
      changes.push(toRecord(next_id++, entry, now, base_id));
      ++result.inserted;
      continue;
    }
    const ItemRecord current = stored.row(found->second);
    if (sameDescription(current, entry)) {
      ++result.unchanged;
    } else {
      changes.push(toRecord(current.id, entry, current.created_at, current.variant_of));
      ++result.updated;
    }
  }
  upsertItems(tx.session(), tx.backend(), changes);
  tx.commit();
  return result;
}

std::vector<ItemRecord> SqlCatalogStore::allItems() {
  auto lease = pool_.read();
  const ItemColumns columns = selectItems(lease.session(), "");
  std::vector<ItemRecord> items;
  items.reserve(columns.size());
  for (std::size_t i = 0; i < columns.size(); ++i) items.push_back(columns.row(i));
  return items;
}

std::vector<ItemRecord> SqlCatalogStore::itemNames() {
  std::vector<std::int64_t> ids;
  std::vector<std::string> names;
  std::vector<std::string> variants;
  std::vector<std::int64_t> bases;
  {
    auto lease = pool_.read();
    lease.session() << "SELECT id, market_hash_name, COALESCE(variant, ''), "
                       "COALESCE(variant_of, 0) FROM items ORDER BY id",
        Poco::Data::Keywords::into(ids), Poco::Data::Keywords::into(names),
        Poco::Data::Keywords::into(variants), Poco::Data::Keywords::into(bases),
        Poco::Data::Keywords::now;
  }
  std::vector<ItemRecord> items(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    items[i].id = ids[i];
    items[i].market_hash_name = std::move(names[i]);
    if (!variants[i].empty()) {
      items[i].variant = std::move(variants[i]);
      items[i].variant_of = bases[i];
    }
  }
  return items;
}

std::optional<ItemRecord> SqlCatalogStore::findById(std::int64_t id) {
  auto lease = pool_.read();
  return single(selectItems(lease.session(), pool_.sql("WHERE id = ?"), id));
}

std::optional<ItemRecord> SqlCatalogStore::findByName(const std::string& market_hash_name) {
  auto lease = pool_.read();
  return single(selectItems(lease.session(),
                            pool_.sql("WHERE market_hash_name = ? AND variant IS NULL"),
                            market_hash_name));
}

std::size_t SqlCatalogStore::fillMissingImages(const std::vector<ItemImage>& images) {
  if (images.empty()) return 0;
  WriteTransaction tx(pool_);
  std::size_t changed = 0;
  for (const auto& [id, url] : images) {
    Poco::Int64 item = id;
    std::string image = url;
    Poco::Data::Statement statement(tx.session());
    statement << tx.sql("UPDATE items SET image_url = ? WHERE id = ? AND image_url = ''"),
        Poco::Data::Keywords::use(image), Poco::Data::Keywords::use(item);
    changed += statement.execute();
  }
  tx.commit();
  return changed;
}

}  // namespace skinpulse::store
