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
  variant.reserve(n);
  variant_of.reserve(n);
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
  variant.push_back(item.variant);
  variant_of.push_back(item.variant_of.value_or(0));
}

ItemRecord ItemColumns::row(std::size_t i) const {
  ItemRecord record{id[i],     market_hash_name[i], weapon_type[i], skin_name[i],
                    rarity[i], stattrak[i],         image_url[i],   created_at[i]};
  if (i < variant.size() && !variant[i].empty()) {
    record.variant = variant[i];
    record.variant_of = variant_of[i];
  }
  return record;
}

namespace {

constexpr const char* kUpdateDescription =
    "ON CONFLICT (id) DO UPDATE SET weapon_type = excluded.weapon_type, "
    "skin_name = excluded.skin_name, rarity = excluded.rarity, "
    "stattrak = excluded.stattrak, image_url = excluded.image_url";

}  // namespace

std::size_t upsertItems(Poco::Data::Session& session, Backend backend, ItemColumns& rows) {
  // Two statements rather than nullable vector binds: base rows leave variant and
  // variant_of NULL, variant rows always carry both.
  ItemColumns bases;
  ItemColumns variants;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    (rows.variant[i].empty() ? bases : variants).push(rows.row(i));
  }
  std::size_t changed = insertColumns(
      session, backend,
      "INSERT INTO items (id, market_hash_name, weapon_type, skin_name, rarity, stattrak, "
      "image_url, created_at)",
      kUpdateDescription, bases.id, bases.market_hash_name, bases.weapon_type, bases.skin_name,
      bases.rarity, bases.stattrak, bases.image_url, bases.created_at);
  changed += insertColumns(
      session, backend,
      "INSERT INTO items (id, market_hash_name, weapon_type, skin_name, rarity, stattrak, "
      "image_url, created_at, variant, variant_of)",
      kUpdateDescription, variants.id, variants.market_hash_name, variants.weapon_type,
      variants.skin_name, variants.rarity, variants.stattrak, variants.image_url,
      variants.created_at, variants.variant, variants.variant_of);
  return changed;
}

}  // namespace skinpulse::store
