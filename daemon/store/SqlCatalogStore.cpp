#include "store/SqlCatalogStore.hpp"

#include "store/ItemRows.hpp"
#include "store/WriteTransaction.hpp"

#include <string_view>
#include <unordered_map>

namespace skinpulse::store {
namespace {

bool sameDescription(const ItemRecord& stored, const CatalogEntry& entry) {
  return stored.weapon_type == entry.weapon_type && stored.skin_name == entry.skin_name &&
         stored.rarity == entry.rarity && stored.stattrak == entry.stattrak &&
         stored.image_url == entry.image_url;
}

ItemRecord toRecord(std::int64_t id, const CatalogEntry& entry, std::int64_t created_at) {
  return ItemRecord{id,           entry.market_hash_name, entry.weapon_type, entry.skin_name,
                    entry.rarity, entry.stattrak,         entry.image_url,   created_at};
}

std::optional<ItemRecord> single(const ItemColumns& columns) {
  if (columns.size() == 0) return std::nullopt;
  return columns.row(0);
}

}  // namespace

CatalogStore::SeedResult SqlCatalogStore::seed(const std::vector<CatalogEntry>& entries,
                                               std::int64_t now) {
  // A name listed twice counts once and its last entry wins, like any upsert stream;
  // `order` keeps first appearances so new ids follow the order given.
  std::unordered_map<std::string_view, const CatalogEntry*> wanted;
  std::vector<std::string_view> order;
  wanted.reserve(entries.size());
  order.reserve(entries.size());
  for (const auto& entry : entries) {
    auto [it, inserted] = wanted.try_emplace(entry.market_hash_name, &entry);
    if (inserted) {
      order.push_back(entry.market_hash_name);
    } else {
      it->second = &entry;
    }
  }

  WriteTransaction tx(pool_);
  // Reading the existing catalogue inside the locked transaction keeps two daemons that
  // seed at the same time from handing out the same ids.
  tx.lockTable("items");
  const ItemColumns stored = selectItems(tx.session(), "");
  std::unordered_map<std::string_view, std::size_t> by_name;
  by_name.reserve(stored.size());
  std::int64_t next_id = 1;
  for (std::size_t i = 0; i < stored.size(); ++i) {
    by_name.emplace(stored.market_hash_name[i], i);
    next_id = std::max(next_id, stored.id[i] + 1);
  }

  SeedResult result;
  ItemColumns changes;
  for (std::string_view name : order) {
    const CatalogEntry& entry = *wanted.at(name);
    const auto found = by_name.find(name);
    if (found == by_name.end()) {
      changes.push(toRecord(next_id++, entry, now));
      ++result.inserted;
      continue;
    }
    const ItemRecord current = stored.row(found->second);
    if (sameDescription(current, entry)) {
      ++result.unchanged;
    } else {
      changes.push(toRecord(current.id, entry, current.created_at));
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
  {
    auto lease = pool_.read();
    lease.session() << "SELECT id, market_hash_name FROM items ORDER BY id",
        Poco::Data::Keywords::into(ids), Poco::Data::Keywords::into(names),
        Poco::Data::Keywords::now;
  }
  std::vector<ItemRecord> items(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    items[i].id = ids[i];
    items[i].market_hash_name = std::move(names[i]);
  }
  return items;
}

std::optional<ItemRecord> SqlCatalogStore::findById(std::int64_t id) {
  auto lease = pool_.read();
  return single(selectItems(lease.session(), pool_.sql("WHERE id = ?"), id));
}

std::optional<ItemRecord> SqlCatalogStore::findByName(const std::string& market_hash_name) {
  auto lease = pool_.read();
  return single(
      selectItems(lease.session(), pool_.sql("WHERE market_hash_name = ?"), market_hash_name));
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
