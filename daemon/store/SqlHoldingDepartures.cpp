#include "store/SqlHoldingDepartures.hpp"

#include "store/AppliedText.hpp"
#include "store/NullableInt.hpp"
#include "store/SqlHoldingStore.hpp"

#include <algorithm>
#include <map>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;

namespace skinpulse::store {
namespace {

constexpr const char* kDepartureColumns =
    "SELECT departure_id, account, item_id, applied_key, applied, quantity, left_at, "
    "last_price, cost_basis, acquired_at, sale_price, sale_price_set_at "
    "FROM holding_departures ";

// Reads rows of kDepartureColumns; `statement` has its WHERE and binds.
std::vector<DepartureRecord> readDepartures(Poco::Data::Session& session, const std::string& sql,
                                            const std::string& user_id,
                                            std::optional<std::int64_t> departure_id) {
  std::vector<std::int64_t> id, item_id, quantity, left_at, last_price;
  std::vector<std::string> account, applied_key, applied;
  std::vector<NullableInt> cost_basis, acquired_at, sale_price, sale_price_set_at;
  Poco::Data::Statement statement(session);
  statement << sql, into(id), into(account), into(item_id), into(applied_key), into(applied),
      into(quantity), into(left_at), into(last_price), into(cost_basis), into(acquired_at),
      into(sale_price), into(sale_price_set_at), bind(user_id);
  if (departure_id) statement.addBind(bind(*departure_id));
  statement.execute();
  std::vector<DepartureRecord> out;
  out.reserve(id.size());
  for (std::size_t i = 0; i < id.size(); ++i) {
    DepartureRecord row;
    row.departure_id = id[i];
    row.account = account[i];
    row.item_id = item_id[i];
    row.applied_key = applied_key[i];
    row.applied = appliedFromJson(applied[i]);
    row.quantity = quantity[i];
    row.left_at = left_at[i];
    row.last_price = last_price[i];
    row.cost_basis = optionalOf(cost_basis[i]);
    row.acquired_at = optionalOf(acquired_at[i]);
    row.sale_price = optionalOf(sale_price[i]);
    row.sale_price_set_at = optionalOf(sale_price_set_at[i]);
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

void writeDepartures(WriteTransaction& tx, const std::string& user_id,
                     const std::vector<DepartureRecord>& departures) {
  if (departures.empty()) return;
  std::vector<std::int64_t> cost_item;
  std::vector<NullableInt> cost_basis, acquired_at;
  tx.session() << tx.sql(
      "SELECT item_id, cost_basis, acquired_at FROM holding_costs WHERE user_id = ?"),
      into(cost_item), into(cost_basis), into(acquired_at), bind(user_id),
      Poco::Data::Keywords::now;
  std::map<std::int64_t, std::size_t> cost_row;
  for (std::size_t i = 0; i < cost_item.size(); ++i) cost_row[cost_item[i]] = i;

  // One statement per departure: an import sees few, and a row with nullable copies does
  // not fit the vector binding of BatchInsert.hpp.
  for (const auto& departure : departures) {
    NullableInt cost, acquired;
    if (const auto row = cost_row.find(departure.item_id); row != cost_row.end()) {
      cost = cost_basis[row->second];
      acquired = acquired_at[row->second];
    }
    const std::string applied = appliedJsonOf(departure.applied);
    tx.session() << tx.sql(
        "INSERT INTO holding_departures (user_id, account, item_id, applied_key, applied, "
        "quantity, left_at, last_price, cost_basis, acquired_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        bind(user_id), bind(departure.account), bind(departure.item_id),
        bind(departure.applied_key), bind(applied), bind(departure.quantity),
        bind(departure.left_at), bind(departure.last_price), bind(cost), bind(acquired),
        Poco::Data::Keywords::now;
  }
}

void withdrawDepartures(WriteTransaction& tx, const std::string& user_id,
                        const std::string& account,
                        const std::vector<std::pair<HoldingIdentity, std::int64_t>>& returned) {
  if (returned.empty()) return;
  // Every open departure of the account in one read (usually none), newest first.
  std::vector<std::int64_t> id, item_id, quantity;
  std::vector<std::string> applied_key;
  tx.session() << tx.sql(
      "SELECT departure_id, item_id, applied_key, quantity FROM holding_departures "
      "WHERE user_id = ? AND account = ? AND sale_price IS NULL "
      "ORDER BY left_at DESC, departure_id DESC"),
      into(id), into(item_id), into(applied_key), into(quantity), bind(user_id), bind(account),
      Poco::Data::Keywords::now;
  if (id.empty()) return;
  std::map<HoldingIdentity, std::vector<std::size_t>> open;
  for (std::size_t i = 0; i < id.size(); ++i) open[{item_id[i], applied_key[i]}].push_back(i);

  for (const auto& [identity, units] : returned) {
    const auto rows = open.find(identity);
    if (rows == open.end()) continue;
    std::int64_t left = units;
    for (const std::size_t row : rows->second) {
      if (left == 0) break;
      const std::int64_t used = std::min(left, quantity[row]);
      left -= used;
      if (used == quantity[row]) {
        tx.session() << tx.sql("DELETE FROM holding_departures WHERE departure_id = ?"),
            bind(id[row]), Poco::Data::Keywords::now;
      } else {
        const std::int64_t rest = quantity[row] - used;
        tx.session() << tx.sql("UPDATE holding_departures SET quantity = ? WHERE departure_id = ?"),
            bind(rest), bind(id[row]), Poco::Data::Keywords::now;
      }
    }
  }
}

std::vector<DepartureRecord> SqlHoldingStore::departuresOf(const std::string& user_id) {
  auto lease = pool_.read();
  return readDepartures(lease.session(),
                        pool_.sql(std::string(kDepartureColumns) +
                                  "WHERE user_id = ? ORDER BY left_at DESC, departure_id DESC"),
                        user_id, std::nullopt);
}

std::optional<DepartureRecord> SqlHoldingStore::setSalePrice(const std::string& user_id,
                                                             std::int64_t departure_id,
                                                             std::optional<std::int64_t> sale_price,
                                                             std::int64_t now) {
  WriteTransaction tx(pool_);
  const NullableInt price = nullableOf(sale_price);
  const NullableInt set_at = sale_price ? NullableInt(now) : NullableInt();
  Poco::Data::Statement update(tx.session());
  update << tx.sql(
      "UPDATE holding_departures SET sale_price = ?, sale_price_set_at = ? "
      "WHERE departure_id = ? AND user_id = ?"),
      bind(price), bind(set_at), bind(departure_id), bind(user_id);
  if (update.execute() == 0) return std::nullopt;
  auto rows = readDepartures(
      tx.session(),
      tx.sql(std::string(kDepartureColumns) + "WHERE user_id = ? AND departure_id = ?"), user_id,
      departure_id);
  tx.commit();
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

bool SqlHoldingStore::deleteDeparture(const std::string& user_id, std::int64_t departure_id) {
  WriteTransaction tx(pool_);
  Poco::Data::Statement statement(tx.session());
  statement << tx.sql("DELETE FROM holding_departures WHERE departure_id = ? AND user_id = ?"),
      bind(departure_id), bind(user_id);
  const bool deleted = statement.execute() > 0;
  tx.commit();
  return deleted;
}

}  // namespace skinpulse::store
