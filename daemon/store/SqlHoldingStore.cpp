#include "store/SqlHoldingStore.hpp"

#include "store/BatchInsert.hpp"
#include "store/NullableInt.hpp"
#include "store/WriteTransaction.hpp"

#include <algorithm>
#include <map>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;

namespace skinpulse::store {
namespace {

// Item ids per DELETE ... IN (...), plus the user id: within the PostgreSQL parameter
// budget of BatchInsert.hpp (libpq's 30,000-byte ParameterDescription limit) and far under
// SQLite's 32,766 host parameters.
constexpr std::size_t kIdsPerDelete = kPostgresMaxParameters - 1;

void deleteItems(WriteTransaction& tx, const std::string& user_id,
                 const std::vector<std::int64_t>& item_ids) {
  for (std::size_t begin = 0; begin < item_ids.size(); begin += kIdsPerDelete) {
    const std::size_t end = std::min(item_ids.size(), begin + kIdsPerDelete);
    std::string list = "?";
    for (std::size_t i = begin + 1; i < end; ++i) list += ", ?";
    Poco::Data::Statement statement(tx.session());
    statement << tx.sql("DELETE FROM holdings WHERE user_id = ? AND item_id IN (" + list + ")"),
        bind(user_id);
    for (std::size_t i = begin; i < end; ++i) statement.addBind(bind(item_ids[i]));
    statement.execute();
  }
}

}  // namespace

void SqlHoldingStore::replaceHoldings(const std::string& user_id,
                                      const std::vector<HoldingRecord>& holdings,
                                      std::int64_t now) {
  // item_id → quantity: a repeated item keeps its last quantity, as in a map.
  std::map<std::int64_t, std::int64_t> wanted;
  for (const auto& holding : holdings) wanted[holding.item_id] = holding.quantity;

  std::vector<std::string> users(wanted.size(), user_id);
  std::vector<std::int64_t> item_ids, quantities;
  std::vector<std::int64_t> imported_at(wanted.size(), now);
  for (const auto& [item_id, quantity] : wanted) {
    item_ids.push_back(item_id);
    quantities.push_back(quantity);
  }

  WriteTransaction tx(pool_);
  std::vector<std::int64_t> held;
  tx.session() << tx.sql("SELECT item_id FROM holdings WHERE user_id = ?"), into(held),
      bind(user_id), Poco::Data::Keywords::now;
  std::vector<std::int64_t> gone;
  for (std::int64_t item_id : held) {
    if (!wanted.contains(item_id)) gone.push_back(item_id);
  }
  deleteItems(tx, user_id, gone);
  insertColumns(tx.session(), tx.backend(),
                "INSERT INTO holdings (user_id, item_id, quantity, imported_at)",
                "ON CONFLICT (user_id, item_id) DO UPDATE "
                "SET quantity = excluded.quantity, imported_at = excluded.imported_at",
                users, item_ids, quantities, imported_at);
  // The copy of the cost bases the hourly pass reads (migration 006/007): a holding that
  // came back gets its own again.
  tx.session() << tx.sql(
      "UPDATE holdings SET cost_basis = (SELECT c.cost_basis FROM holding_costs c "
      "WHERE c.user_id = holdings.user_id AND c.item_id = holdings.item_id) "
      "WHERE user_id = ?"),
      bind(user_id), Poco::Data::Keywords::now;
  tx.session() << tx.sql(
      "INSERT INTO import_metadata (user_id, last_imported_at) VALUES (?, ?) "
      "ON CONFLICT (user_id) DO UPDATE "
      "SET last_imported_at = excluded.last_imported_at"),
      bind(user_id), bind(now), Poco::Data::Keywords::now;
  tx.commit();
}

std::vector<HoldingRecord> SqlHoldingStore::holdingsOf(const std::string& user_id) {
  std::vector<std::int64_t> item_id, quantity, imported_at;
  std::vector<NullableInt> cost_basis, acquired_at;
  auto lease = pool_.read();
  lease.session() << pool_.sql(
      "SELECT h.item_id, h.quantity, h.imported_at, c.cost_basis, c.acquired_at "
      "FROM holdings h LEFT JOIN holding_costs c "
      "ON c.user_id = h.user_id AND c.item_id = h.item_id "
      "WHERE h.user_id = ? ORDER BY h.item_id"),
      into(item_id), into(quantity), into(imported_at), into(cost_basis), into(acquired_at),
      bind(user_id), Poco::Data::Keywords::now;
  std::vector<HoldingRecord> out;
  out.reserve(item_id.size());
  for (std::size_t i = 0; i < item_id.size(); ++i) {
    out.push_back({item_id[i], quantity[i], imported_at[i], optionalOf(cost_basis[i]),
                   optionalOf(acquired_at[i])});
  }
  return out;
}

std::optional<HoldingRecord> SqlHoldingStore::changeCost(const std::string& user_id,
                                                         std::int64_t item_id,
                                                         const CostChange& change,
                                                         std::int64_t now) {
  WriteTransaction tx(pool_);
  std::vector<std::int64_t> quantity, imported_at;
  tx.session() << tx.sql(
      "SELECT quantity, imported_at FROM holdings WHERE user_id = ? AND item_id = ?"),
      into(quantity), into(imported_at), bind(user_id), bind(item_id), Poco::Data::Keywords::now;
  if (quantity.empty()) return std::nullopt;

  std::vector<NullableInt> cost_basis, acquired_at;
  tx.session() << tx.sql(
      "SELECT cost_basis, acquired_at FROM holding_costs WHERE user_id = ? AND item_id = ?"),
      into(cost_basis), into(acquired_at), bind(user_id), bind(item_id), Poco::Data::Keywords::now;
  HoldingRecord holding{item_id, quantity.front(), imported_at.front(),
                        cost_basis.empty() ? std::nullopt : optionalOf(cost_basis.front()),
                        acquired_at.empty() ? std::nullopt : optionalOf(acquired_at.front())};
  if (change.set_cost_basis) holding.cost_basis = change.cost_basis;
  if (change.set_acquired_at) holding.acquired_at = change.acquired_at;

  if (!holding.cost_basis && !holding.acquired_at) {
    tx.session() << tx.sql("DELETE FROM holding_costs WHERE user_id = ? AND item_id = ?"),
        bind(user_id), bind(item_id), Poco::Data::Keywords::now;
  } else {
    const NullableInt cost = nullableOf(holding.cost_basis);
    const NullableInt acquired = nullableOf(holding.acquired_at);
    tx.session() << tx.sql(
        "INSERT INTO holding_costs (user_id, item_id, cost_basis, acquired_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, item_id) DO UPDATE "
        "SET cost_basis = excluded.cost_basis, acquired_at = excluded.acquired_at, "
        "updated_at = excluded.updated_at"),
        bind(user_id), bind(item_id), bind(cost), bind(acquired), bind(now),
        Poco::Data::Keywords::now;
  }
  const NullableInt copy = nullableOf(holding.cost_basis);
  tx.session() << tx.sql("UPDATE holdings SET cost_basis = ? WHERE user_id = ? AND item_id = ?"),
      bind(copy), bind(user_id), bind(item_id), Poco::Data::Keywords::now;
  tx.commit();
  return holding;
}

std::vector<std::int64_t> SqlHoldingStore::heldItemIds() {
  std::vector<std::int64_t> ids;
  auto lease = pool_.read();
  lease.session() << "SELECT DISTINCT item_id FROM holdings ORDER BY item_id", into(ids),
      Poco::Data::Keywords::now;
  return ids;
}

std::optional<std::int64_t> SqlHoldingStore::lastImportedAt(const std::string& user_id) {
  std::vector<std::int64_t> at;
  auto lease = pool_.read();
  lease.session() << pool_.sql("SELECT last_imported_at FROM import_metadata WHERE user_id = ?"),
      into(at), bind(user_id), Poco::Data::Keywords::now;
  if (at.empty()) return std::nullopt;
  return at.front();
}

}  // namespace skinpulse::store
