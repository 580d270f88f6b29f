// SqlHoldingStore::setCosts: the cost bases of a bulk upload (docs/api.md §23.3), apart
// from SqlHoldingStore.cpp so the holdings model and the upload change in separate files.
#include "store/BatchInsert.hpp"
#include "store/SqlHoldingStore.hpp"
#include "store/WriteTransaction.hpp"

#include <map>

using Poco::Data::Keywords::bind;

namespace skinpulse::store {

void SqlHoldingStore::setCosts(const std::string& user_id, const std::vector<ItemCost>& costs,
                               std::int64_t now) {
  if (costs.empty()) return;
  // One row per item (the last of a repeated one): PostgreSQL refuses an upsert that
  // touches a row twice in one statement.
  std::map<std::int64_t, const ItemCost*> by_item;
  for (const auto& cost : costs) by_item[cost.item_id] = &cost;

  // Two batches, so no column is bound as a nullable vector: the items with a date set
  // it, the others keep the stored one.
  std::vector<std::string> dated_users, undated_users;
  std::vector<std::int64_t> dated_items, dated_costs, dated_at, dated_now;
  std::vector<std::int64_t> undated_items, undated_costs, undated_now;
  for (const auto& [item_id, cost] : by_item) {
    if (cost->acquired_at) {
      dated_users.push_back(user_id);
      dated_items.push_back(item_id);
      dated_costs.push_back(cost->cost_basis);
      dated_at.push_back(*cost->acquired_at);
      dated_now.push_back(now);
    } else {
      undated_users.push_back(user_id);
      undated_items.push_back(item_id);
      undated_costs.push_back(cost->cost_basis);
      undated_now.push_back(now);
    }
  }

  WriteTransaction tx(pool_);
  insertColumns(tx.session(), tx.backend(),
                "INSERT INTO holding_costs (user_id, item_id, cost_basis, acquired_at, updated_at)",
                "ON CONFLICT (user_id, item_id) DO UPDATE SET cost_basis = excluded.cost_basis, "
                "acquired_at = excluded.acquired_at, updated_at = excluded.updated_at",
                dated_users, dated_items, dated_costs, dated_at, dated_now);
  insertColumns(tx.session(), tx.backend(),
                "INSERT INTO holding_costs (user_id, item_id, cost_basis, updated_at)",
                "ON CONFLICT (user_id, item_id) DO UPDATE SET cost_basis = excluded.cost_basis, "
                "updated_at = excluded.updated_at",
                undated_users, undated_items, undated_costs, undated_now);
  // The copy the hourly pass reads (migration 006/007), on every holding of the user, as
  // an import refreshes it: one statement whatever the number of items.
  tx.session() << tx.sql(
      "UPDATE holdings SET cost_basis = (SELECT c.cost_basis FROM holding_costs c "
      "WHERE c.user_id = holdings.user_id AND c.item_id = holdings.item_id) "
      "WHERE user_id = ?"),
      bind(user_id), Poco::Data::Keywords::now;
  tx.commit();
}

}  // namespace skinpulse::store
