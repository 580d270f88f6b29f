#include "store/ItemRows.hpp"

#include "store/BatchInsert.hpp"

namespace skinpulse::store {

void ItemColumns::reserve(std::size_t n) {
  id.reserve(n);
  market_hash_name.reserve(n);
  weapon_type.reserve(n);
  skin_name.reserve(n);
  rarity.reserve(n);
  stattrak.reserve(n);
  image_url.reserve(n);
  created_at.reserve(n);
}

void ItemColumns::push(const ItemRecord& item) {
  id.push_back(item.id);
  market_hash_name.push_back(item.market_hash_name);
  weapon_type.push_back(item.weapon_type);
  skin_name.push_back(item.skin_name);
  rarity.push_back(item.rarity);
  stattrak.push_back(item.stattrak);
  image_url.push_back(item.image_url);
  created_at.push_back(item.created_at);
}

ItemRecord ItemColumns::row(std::size_t i) const {
  return ItemRecord{id[i],     market_hash_name[i], weapon_type[i], skin_name[i],
                    rarity[i], stattrak[i],         image_url[i],   created_at[i]};
}

std::size_t upsertItems(Poco::Data::Session& session, Backend backend, ItemColumns& rows) {
  return insertColumns(
      session, backend,
      "INSERT INTO items (id, market_hash_name, weapon_type, skin_name, rarity, stattrak, "
      "image_url, created_at)",
      "ON CONFLICT (id) DO UPDATE SET weapon_type = excluded.weapon_type, "
      "skin_name = excluded.skin_name, rarity = excluded.rarity, "
      "stattrak = excluded.stattrak, image_url = excluded.image_url",
      rows.id, rows.market_hash_name, rows.weapon_type, rows.skin_name, rows.rarity, rows.stattrak,
      rows.image_url, rows.created_at);
}

}  // namespace skinpulse::store
