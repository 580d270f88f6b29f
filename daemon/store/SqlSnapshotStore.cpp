#include "store/SqlSnapshotStore.hpp"

#include "store/BatchInsert.hpp"
#include "store/WriteTransaction.hpp"

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {
namespace {

constexpr std::int64_t kHour = 3600;

// The upsert tail shared by the single and the set-based write.
constexpr const char* kReplaceSameHour =
    "ON CONFLICT (user_id, hour) DO UPDATE SET taken_at = excluded.taken_at, "
    "total_value = excluded.total_value, cost_total = excluded.cost_total";

// The pass's prices live in a temporary table of the connection: invisible to other
// connections (and other daemons sharing a PostgreSQL database), emptied at commit.
void preparePriceTable(WriteTransaction& tx) {
  if (tx.backend() == Backend::kSqlite) {
    tx.session() << "CREATE TEMP TABLE IF NOT EXISTS snapshot_prices ("
                    "item_id INTEGER PRIMARY KEY, price INTEGER NOT NULL)",
        now;
    tx.session() << "DELETE FROM temp.snapshot_prices", now;
  } else {
    tx.session() << "CREATE TEMP TABLE IF NOT EXISTS snapshot_prices ("
                    "item_id BIGINT PRIMARY KEY, price BIGINT NOT NULL) ON COMMIT DELETE ROWS",
        now;
  }
}

}  // namespace

void SqlSnapshotStore::putSnapshot(const std::string& user_id, const SnapshotRecord& snapshot) {
  WriteTransaction tx(pool_);
  tx.session() << tx.sql(std::string("INSERT INTO portfolio_snapshots "
                                     "(user_id, hour, taken_at, total_value, cost_total) "
                                     "VALUES (?, ?, ?, ?, ?) ") +
                         kReplaceSameHour),
      bind(user_id), bind(snapshot.hour), bind(snapshot.taken_at), bind(snapshot.total_value),
      bind(snapshot.cost_total), now;
  tx.commit();
}

std::size_t SqlSnapshotStore::snapshotAll(const std::vector<std::int64_t>& item_ids,
                                          const std::vector<std::int64_t>& prices,
                                          std::int64_t hour, std::int64_t taken_at) {
  WriteTransaction tx(pool_);
  preparePriceTable(tx);
  std::vector<std::int64_t> ids = item_ids;
  std::vector<std::int64_t> cents = prices;
  insertColumns(tx.session(), tx.backend(), "INSERT INTO snapshot_prices (item_id, price)", "", ids,
                cents);
  // "WHERE 1 = 1": SQLite needs a WHERE before ON CONFLICT in INSERT … SELECT, or it
  // reads the ON of the upsert as a join constraint.
  Poco::Data::Statement pass(tx.session());
  pass << tx.sql(
      std::string(
          "INSERT INTO portfolio_snapshots (user_id, hour, taken_at, total_value, cost_total) "
          "SELECT h.user_id, CAST(? AS BIGINT), CAST(? AS BIGINT), "
          "SUM(h.quantity * COALESCE(p.price, 0)), "
          "SUM(h.quantity * COALESCE(h.cost_basis, 0)) "
          "FROM holdings h "
          "LEFT JOIN snapshot_prices p ON p.item_id = h.item_id "
          "WHERE 1 = 1 GROUP BY h.user_id ") +
      kReplaceSameHour),
      bind(hour), bind(taken_at);
  const std::size_t users = pass.execute();
  tx.commit();
  return users;
}

std::vector<SnapshotRecord> SqlSnapshotStore::snapshotsOf(const std::string& user_id,
                                                          std::int64_t since) {
  std::vector<std::int64_t> hour, taken_at, total_value, cost_total;
  // The hour bound lets the primary key (user_id, hour) narrow the scan.
  const std::int64_t first_hour = since - since % kHour;
  auto lease = pool_.read();
  lease.session() << pool_.sql(
      "SELECT hour, taken_at, total_value, cost_total FROM portfolio_snapshots "
      "WHERE user_id = ? AND hour >= ? AND taken_at > ? ORDER BY hour"),
      into(hour), into(taken_at), into(total_value), into(cost_total), bind(user_id),
      bind(first_hour), bind(since), now;
  std::vector<SnapshotRecord> out;
  out.reserve(hour.size());
  for (std::size_t i = 0; i < hour.size(); ++i) {
    out.push_back({hour[i], taken_at[i], total_value[i], cost_total[i]});
  }
  return out;
}

std::size_t SqlSnapshotStore::pruneSnapshots(std::int64_t before) {
  WriteTransaction tx(pool_);
  Poco::Data::Statement statement(tx.session());
  statement << tx.sql("DELETE FROM portfolio_snapshots WHERE hour < ?"), bind(before);
  const std::size_t deleted = statement.execute();
  tx.commit();
  return deleted;
}

}  // namespace skinpulse::store
