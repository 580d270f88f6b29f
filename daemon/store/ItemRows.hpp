#pragma once

// Reading and writing items as parallel column vectors: Poco extracts and binds whole
// vectors, which is much faster than a row at a time for a 37,000-item catalogue.

#include "store/DatabaseUrl.hpp"
#include "store/Records.hpp"

#include <Poco/Data/Session.h>

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::store {

struct ItemColumns {
  std::vector<std::int64_t> id;
  std::vector<std::string> market_hash_name;
  std::vector<std::string> weapon_type;
  std::vector<std::string> skin_name;
  std::vector<std::string> rarity;
  std::vector<bool> stattrak;
  std::vector<std::string> image_url;
  std::vector<std::int64_t> created_at;
  std::vector<std::string> variant;      ///< '' for a base item (NULL in the table)
  std::vector<std::int64_t> variant_of;  ///< 0 for a base item (NULL in the table)

  void reserve(std::size_t n);
  void push(const ItemRecord& item);
  std::size_t size() const { return id.size(); }
  ItemRecord row(std::size_t i) const;
};

/// Items matching `where` ("" for all, else e.g. "WHERE id = ?" with `?` placeholders
/// adapted by the caller), ordered by id; `params` are bound in order.
template <typename... Param>
ItemColumns selectItems(Poco::Data::Session& session, const std::string& where, Param... params) {
  using Poco::Data::Keywords::bind;
  using Poco::Data::Keywords::into;
  ItemColumns c;
  Poco::Data::Statement statement(session);
  statement << "SELECT id, market_hash_name, weapon_type, skin_name, rarity, stattrak, "
               "image_url, created_at, COALESCE(variant, ''), COALESCE(variant_of, 0) FROM items " +
                   where + " ORDER BY id",
      into(c.id), into(c.market_hash_name), into(c.weapon_type), into(c.skin_name), into(c.rarity),
      into(c.stattrak), into(c.image_url), into(c.created_at), into(c.variant), into(c.variant_of);
  (statement.addBind(bind(params)), ...);
  statement.execute();
  return c;
}

/// Inserts `rows`; a row whose id exists updates that item's descriptive fields and
/// keeps its created_at (its name, variant and base never change). Base rows go first, so
/// a variant row may name a base of the same call. Returns the rows changed.
std::size_t upsertItems(Poco::Data::Session& session, Backend backend, ItemColumns& rows);

}  // namespace skinpulse::store
