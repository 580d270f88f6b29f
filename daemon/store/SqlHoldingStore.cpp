#include "store/SqlHoldingStore.hpp"

#include "store/AppliedText.hpp"
#include "store/BatchInsert.hpp"
#include "store/NullableInt.hpp"
#include "store/SqlHoldingDepartures.hpp"
#include "store/WriteTransaction.hpp"

#include <algorithm>
#include <map>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;

namespace skinpulse::store {
namespace {

// Holding ids per DELETE ... IN (...): within the PostgreSQL parameter budget of
// BatchInsert.hpp (libpq's 30,000-byte ParameterDescription limit) and far under
// SQLite's 32,766 host parameters.
constexpr std::size_t kIdsPerHoldingDelete = kPostgresMaxParameters;

void deleteHoldingIds(WriteTransaction& tx, const std::vector<std::int64_t>& holding_ids) {
  for (std::size_t begin = 0; begin < holding_ids.size(); begin += kIdsPerHoldingDelete) {
    const std::size_t end = std::min(holding_ids.size(), begin + kIdsPerHoldingDelete);
    std::string list = "?";
    for (std::size_t i = begin + 1; i < end; ++i) list += ", ?";
    Poco::Data::Statement statement(tx.session());
    statement << tx.sql("DELETE FROM holdings WHERE holding_id IN (" + list + ")");
    for (std::size_t i = begin; i < end; ++i) statement.addBind(bind(holding_ids[i]));
    statement.execute();
  }
}

// What an import wants an account to hold: identity → the holding (quantities summed).
std::map<HoldingIdentity, HoldingRecord> wantedHoldings(
    const std::vector<HoldingRecord>& holdings) {
  std::map<HoldingIdentity, HoldingRecord> wanted;
  for (const auto& holding : holdings) {
    HoldingRecord one = holding;
    if (!one.applied.empty()) {
      one.applied = canonicalApplied(std::move(one.applied));
      one.applied_key = appliedKeyOf(one.applied);
    }
    const HoldingIdentity identity{one.item_id, one.applied_key};
    auto [at, fresh] = wanted.emplace(identity, one);
    if (!fresh) at->second.quantity += one.quantity;
  }
  return wanted;
}

// The account's holdings as stored: identity → (holding_id, quantity, applied JSON).
struct StoredHolding {
  std::int64_t holding_id = 0;
  std::int64_t quantity = 0;
  std::string applied_json;
};

std::map<HoldingIdentity, StoredHolding> storedHoldings(WriteTransaction& tx,
                                                        const std::string& user_id,
                                                        const std::string& account) {
  std::vector<std::int64_t> holding_id, item_id, quantity;
  std::vector<std::string> applied_key, applied;
  tx.session() << tx.sql(
      "SELECT holding_id, item_id, applied_key, applied, quantity FROM holdings "
      "WHERE user_id = ? AND account = ?"),
      into(holding_id), into(item_id), into(applied_key), into(applied), into(quantity),
      bind(user_id), bind(account), Poco::Data::Keywords::now;
  std::map<HoldingIdentity, StoredHolding> stored;
  for (std::size_t i = 0; i < holding_id.size(); ++i) {
    stored[{item_id[i], applied_key[i]}] = {holding_id[i], quantity[i], applied[i]};
  }
  return stored;
}

HoldingRecord holdingOfRow(std::int64_t holding_id, const std::string& account,
                           std::int64_t item_id, const std::string& applied_key,
                           const std::string& applied, std::int64_t quantity,
                           std::int64_t imported_at, const NullableInt& cost_basis,
                           const NullableInt& acquired_at) {
  HoldingRecord out{item_id, quantity, imported_at, optionalOf(cost_basis),
                    optionalOf(acquired_at)};
  out.holding_id = holding_id;
  out.account = account;
  out.applied_key = applied_key;
  out.applied = appliedFromJson(applied);
  return out;
}

// Whether `account` is linked to the user, read in `tx`. On PostgreSQL the link row is
// locked (FOR SHARE) until the transaction ends, so an unlink's DELETE waits for it; on
// SQLite the write transaction already excludes every other writer.
bool accountLinked(WriteTransaction& tx, const std::string& user_id, const std::string& account) {
  std::vector<int> found;
  const std::string lock = tx.backend() == Backend::kPostgres ? " FOR SHARE" : "";
  tx.session() << tx.sql("SELECT 1 FROM game_links WHERE user_id = ? AND platform_id = ?" + lock),
      into(found), bind(user_id), bind(account), Poco::Data::Keywords::now;
  return !found.empty();
}

// replaceHoldings' writes, in the caller's transaction (not committed here).
void replaceIn(WriteTransaction& tx, const std::string& user_id, const std::string& account,
               const std::vector<HoldingRecord>& holdings,
               const std::map<std::int64_t, std::int64_t>& last_prices, std::int64_t now) {
  const auto wanted = wantedHoldings(holdings);
  const auto stored = storedHoldings(tx, user_id, account);

  // Units that went (a departure each) and units that came back (withdrawals).
  std::vector<DepartureRecord> gone_units;
  std::vector<std::pair<HoldingIdentity, std::int64_t>> returned_units;
  std::vector<std::int64_t> gone_rows;
  for (const auto& [identity, held] : stored) {
    const auto now_held = wanted.find(identity);
    const std::int64_t remaining = now_held == wanted.end() ? 0 : now_held->second.quantity;
    if (now_held == wanted.end()) gone_rows.push_back(held.holding_id);
    if (remaining < held.quantity) {
      DepartureRecord departure;
      departure.account = account;
      departure.item_id = identity.item_id;
      departure.applied_key = identity.applied_key;
      departure.applied = appliedFromJson(held.applied_json);
      departure.quantity = held.quantity - remaining;
      departure.left_at = now;
      const auto price = last_prices.find(identity.item_id);
      departure.last_price =
          price == last_prices.end() ? 0 : std::max<std::int64_t>(0, price->second);
      gone_units.push_back(std::move(departure));
    }
  }
  for (const auto& [identity, holding] : wanted) {
    const auto before = stored.find(identity);
    const std::int64_t had = before == stored.end() ? 0 : before->second.quantity;
    if (holding.quantity > had) returned_units.emplace_back(identity, holding.quantity - had);
  }
  writeDepartures(tx, user_id, gone_units);
  withdrawDepartures(tx, user_id, account, returned_units);

  deleteHoldingIds(tx, gone_rows);
  std::vector<std::string> users(wanted.size(), user_id);
  std::vector<std::string> accounts(wanted.size(), account);
  std::vector<std::int64_t> item_ids, quantities;
  std::vector<std::string> applied_keys, applied;
  std::vector<std::int64_t> imported_at(wanted.size(), now);
  for (const auto& [identity, holding] : wanted) {
    item_ids.push_back(identity.item_id);
    applied_keys.push_back(identity.applied_key);
    applied.push_back(appliedJsonOf(holding.applied));
    quantities.push_back(holding.quantity);
  }
  insertColumns(tx.session(), tx.backend(),
                "INSERT INTO holdings (user_id, account, item_id, applied_key, applied, quantity, "
                "imported_at)",
                "ON CONFLICT (user_id, account, item_id, applied_key) DO UPDATE "
                "SET quantity = excluded.quantity, imported_at = excluded.imported_at, "
                "applied = excluded.applied",
                users, accounts, item_ids, applied_keys, applied, quantities, imported_at);
  // The copy of the cost bases the hourly pass reads (migration 006/007), on every row of
  // the account: a holding that came back gets its own again.
  tx.session() << tx.sql(
      "UPDATE holdings SET cost_basis = (SELECT c.cost_basis FROM holding_costs c "
      "WHERE c.user_id = holdings.user_id AND c.item_id = holdings.item_id) "
      "WHERE user_id = ? AND account = ?"),
      bind(user_id), bind(account), Poco::Data::Keywords::now;
  tx.session() << tx.sql(
      "INSERT INTO import_metadata (user_id, account, last_imported_at) VALUES (?, ?, ?) "
      "ON CONFLICT (user_id, account) DO UPDATE "
      "SET last_imported_at = excluded.last_imported_at"),
      bind(user_id), bind(account), bind(now), Poco::Data::Keywords::now;
}

}  // namespace

void SqlHoldingStore::replaceHoldings(const std::string& user_id, const std::string& account,
                                      const std::vector<HoldingRecord>& holdings,
                                      const std::map<std::int64_t, std::int64_t>& last_prices,
                                      std::int64_t now) {
  WriteTransaction tx(pool_);
  replaceIn(tx, user_id, account, holdings, last_prices, now);
  tx.commit();
}

bool SqlHoldingStore::replaceLinkedHoldings(const std::string& user_id, const std::string& account,
                                            const std::vector<HoldingRecord>& holdings,
                                            const std::map<std::int64_t, std::int64_t>& last_prices,
                                            std::int64_t now) {
  WriteTransaction tx(pool_);
  if (!accountLinked(tx, user_id, account)) return false;  // rolled back: nothing written
  replaceIn(tx, user_id, account, holdings, last_prices, now);
  tx.commit();
  return true;
}

std::vector<HoldingRecord> SqlHoldingStore::holdingsOf(const std::string& user_id) {
  std::vector<std::int64_t> holding_id, item_id, quantity, imported_at;
  std::vector<std::string> account, applied_key, applied;
  std::vector<NullableInt> cost_basis, acquired_at;
  auto lease = pool_.read();
  lease.session() << pool_.sql(
      "SELECT h.holding_id, h.account, h.item_id, h.applied_key, h.applied, h.quantity, "
      "h.imported_at, c.cost_basis, c.acquired_at "
      "FROM holdings h LEFT JOIN holding_costs c "
      "ON c.user_id = h.user_id AND c.item_id = h.item_id "
      "WHERE h.user_id = ? ORDER BY h.item_id, h.account, h.applied_key"),
      into(holding_id), into(account), into(item_id), into(applied_key), into(applied),
      into(quantity), into(imported_at), into(cost_basis), into(acquired_at), bind(user_id),
      Poco::Data::Keywords::now;
  std::vector<HoldingRecord> out;
  out.reserve(item_id.size());
  for (std::size_t i = 0; i < item_id.size(); ++i) {
    out.push_back(holdingOfRow(holding_id[i], account[i], item_id[i], applied_key[i], applied[i],
                               quantity[i], imported_at[i], cost_basis[i], acquired_at[i]));
  }
  return out;
}

std::optional<HoldingRecord> SqlHoldingStore::changeCost(const std::string& user_id,
                                                         std::int64_t item_id,
                                                         const CostChange& change,
                                                         std::int64_t now) {
  WriteTransaction tx(pool_);
  std::vector<std::int64_t> holding_id, quantity, imported_at;
  std::vector<std::string> account, applied_key, applied;
  tx.session() << tx.sql(
      "SELECT holding_id, account, applied_key, applied, quantity, imported_at FROM holdings "
      "WHERE user_id = ? AND item_id = ? ORDER BY account, applied_key"),
      into(holding_id), into(account), into(applied_key), into(applied), into(quantity),
      into(imported_at), bind(user_id), bind(item_id), Poco::Data::Keywords::now;
  if (quantity.empty()) return std::nullopt;

  std::vector<NullableInt> cost_basis, acquired_at;
  tx.session() << tx.sql(
      "SELECT cost_basis, acquired_at FROM holding_costs WHERE user_id = ? AND item_id = ?"),
      into(cost_basis), into(acquired_at), bind(user_id), bind(item_id), Poco::Data::Keywords::now;
  HoldingRecord holding = holdingOfRow(holding_id.front(), account.front(), item_id,
                                       applied_key.front(), applied.front(), quantity.front(),
                                       imported_at.front(), NullableInt(), NullableInt());
  if (quantity.size() > 1) {
    // Several holdings of the item (accounts, applied sets): the PATCH answers for the
    // item, so they are combined.
    holding.applied.clear();
    holding.applied_key.clear();
    for (std::size_t i = 1; i < quantity.size(); ++i) {
      holding.quantity += quantity[i];
      holding.imported_at = std::max(holding.imported_at, imported_at[i]);
      if (account[i] != holding.account) holding.account.clear();
    }
  }
  holding.cost_basis = cost_basis.empty() ? std::nullopt : optionalOf(cost_basis.front());
  holding.acquired_at = acquired_at.empty() ? std::nullopt : optionalOf(acquired_at.front());
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

void deleteAccountRows(WriteTransaction& tx, const std::string& user_id,
                       const std::string& account) {
  tx.session() << tx.sql("DELETE FROM holdings WHERE user_id = ? AND account = ?"), bind(user_id),
      bind(account), Poco::Data::Keywords::now;
  tx.session() << tx.sql("DELETE FROM import_metadata WHERE user_id = ? AND account = ?"),
      bind(user_id), bind(account), Poco::Data::Keywords::now;
}

void SqlHoldingStore::forgetAccount(const std::string& user_id, const std::string& account) {
  WriteTransaction tx(pool_);
  deleteAccountRows(tx, user_id, account);
  tx.commit();
}

std::vector<std::int64_t> SqlHoldingStore::heldItemIds() {
  std::vector<std::int64_t> ids;
  std::vector<std::string> applied;
  auto lease = pool_.read();
  lease.session() << "SELECT DISTINCT item_id FROM holdings ORDER BY item_id", into(ids),
      Poco::Data::Keywords::now;
  // The stickers and charms applied to held items are valued too (docs/api.md §23.1):
  // a rate-limited source polls them with the same priority as the items they sit on.
  lease.session() << "SELECT DISTINCT applied FROM holdings WHERE applied_key <> ''", into(applied),
      Poco::Data::Keywords::now;
  for (const auto& json : applied) {
    for (const auto& thing : appliedFromJson(json)) {
      if (thing.item_id) ids.push_back(*thing.item_id);
    }
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::vector<std::string> SqlHoldingStore::usersHoldingApplied() {
  std::vector<std::string> users;
  auto lease = pool_.read();
  lease.session() << "SELECT DISTINCT user_id FROM holdings WHERE applied_key <> '' "
                     "ORDER BY user_id",
      into(users), Poco::Data::Keywords::now;
  return users;
}

std::optional<std::int64_t> SqlHoldingStore::lastImportedAt(const std::string& user_id) {
  std::vector<std::int64_t> at;
  auto lease = pool_.read();
  lease.session() << pool_.sql(
      "SELECT last_imported_at FROM import_metadata WHERE user_id = ? "
      "ORDER BY last_imported_at DESC LIMIT 1"),
      into(at), bind(user_id), Poco::Data::Keywords::now;
  if (at.empty()) return std::nullopt;
  return at.front();
}

std::map<std::string, std::int64_t> SqlHoldingStore::importedAtByAccount(
    const std::string& user_id) {
  std::vector<std::string> account;
  std::vector<std::int64_t> at;
  auto lease = pool_.read();
  lease.session() << pool_.sql(
      "SELECT account, last_imported_at FROM import_metadata WHERE user_id = ?"),
      into(account), into(at), bind(user_id), Poco::Data::Keywords::now;
  std::map<std::string, std::int64_t> out;
  for (std::size_t i = 0; i < account.size(); ++i) out[account[i]] = at[i];
  return out;
}

}  // namespace skinpulse::store
