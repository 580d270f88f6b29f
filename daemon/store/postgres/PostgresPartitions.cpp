#include "store/postgres/PostgresPartitions.hpp"

#include "common/Log.hpp"
#include "store/Ohlcv.hpp"
#include "store/WriteTransaction.hpp"

#include <Poco/Data/Statement.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <limits>
#include <regex>
#include <stdexcept>

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store::postgres {
namespace {

constexpr std::int64_t kDay = 86400;
// Long enough for a cycle's insert to finish, short enough that readers queued behind
// the drop's exclusive lock barely notice; a refused pass is retried at the next one.
constexpr const char* kLockTimeout = "SET LOCAL lock_timeout = '2s'";

// "FOR VALUES FROM ('1793577600') TO ('1793664000')", "FOR VALUES FROM (MINVALUE) TO (...)",
// "DEFAULT" (pg_get_expr of relpartbound).
Partition parseBound(const std::string& name, const std::string& bound) {
  Partition partition{name, std::nullopt, std::nullopt, false};
  if (bound == "DEFAULT") {
    partition.is_default = true;
    return partition;
  }
  static const std::regex range(
      R"(FROM \((?:'(-?\d+)'|(MINVALUE))\) TO \((?:'(-?\d+)'|(MAXVALUE))\))");
  std::smatch match;
  if (!std::regex_search(bound, match, range)) {
    throw std::runtime_error("price_points partition " + name +
                             " has an unexpected bound: " + bound);
  }
  if (match[1].matched) partition.from = std::stoll(match[1].str());
  if (match[3].matched) partition.to = std::stoll(match[3].str());
  return partition;
}

// Serialises the keepers of every instance of a fleet (all start together, and each runs
// retention): the second one to create or drop a day finds it done.
constexpr std::int64_t kPartitionLockKey = 0x736b696e70617274;  // "skinpart"

bool isPartition(WriteTransaction& tx, const std::string& name) {
  std::int64_t found = 0;
  tx.session() << "SELECT COUNT(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                  "WHERE i.inhparent = to_regclass('price_points') AND c.relname = '" +
                      name + "'",
      into(found), now;
  return found > 0;
}

bool isLockTimeout(const std::exception& e) {
  const std::string message = e.what();
  return message.find("lock timeout") != std::string::npos ||
         message.find("55P03") != std::string::npos;
}

}  // namespace

std::string dayPartitionName(std::int64_t day_start) {
  const std::time_t t = static_cast<std::time_t>(bucketStart(day_start, kDay));
  std::tm utc{};
  gmtime_r(&t, &utc);
  char name[64];
  std::snprintf(name, sizeof name, "price_points_p%04d%02d%02d", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday);
  return name;
}

std::vector<Partition> PartitionKeeper::list() {
  std::vector<std::string> names, bounds;
  auto lease = pool_.read();
  lease.session() << "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i "
                     "JOIN pg_class c ON c.oid = i.inhrelid "
                     "WHERE i.inhparent = to_regclass('price_points')",
      into(names), into(bounds), now;
  std::vector<Partition> partitions;
  for (std::size_t i = 0; i < names.size(); ++i) {
    // This read takes no lock: a partition another instance is dropping at this moment
    // can still be listed, with a NULL bound (read as ""). It is going away: skip it,
    // as the keeper re-checks every day under the advisory lock before it acts.
    // (Seen in CI: two instances running retention at once.)
    if (bounds[i].empty()) continue;
    partitions.push_back(parseBound(names[i], bounds[i]));
  }
  std::sort(partitions.begin(), partitions.end(), [](const Partition& a, const Partition& b) {
    if (a.is_default != b.is_default) return b.is_default;
    const auto low = std::numeric_limits<std::int64_t>::min();
    return a.from.value_or(low) < b.from.value_or(low);
  });
  return partitions;
}

bool PartitionKeeper::retireEmptyLegacy() {
  constexpr const char* kLegacy = "price_points_legacy";
  WriteTransaction tx(pool_);
  tx.session() << kLockTimeout, now;
  tx.lockAdvisory(kPartitionLockKey);
  if (!isPartition(tx, kLegacy)) return false;
  std::int64_t rows = 0;
  tx.session() << "SELECT COUNT(*) FROM (SELECT 1 FROM price_points_legacy LIMIT 1) AS any_row",
      into(rows), now;
  if (rows != 0) return false;  // an upgraded database: retention drops it when its days go
  tx.session() << "ALTER TABLE price_points DETACH PARTITION price_points_legacy", now;
  tx.session() << "DROP TABLE price_points_legacy", now;
  tx.commit();
  return true;
}

std::size_t PartitionKeeper::ensureDays(std::int64_t from, std::int64_t to) {
  try {
    retireEmptyLegacy();
  } catch (const std::exception& e) {
    if (!isLockTimeout(e)) throw;  // busy: the next pass tries again
  }
  const auto partitions = list();
  if (partitions.empty()) return 0;  // price_points is not partitioned (before migration 010)
  const auto covered = [&](std::int64_t day) {
    return std::any_of(partitions.begin(), partitions.end(), [&](const Partition& p) {
      if (p.is_default) return false;
      const bool above = !p.from || *p.from <= day;
      const bool below = !p.to || day < *p.to;
      return above && below;
    });
  };
  std::size_t created = 0;
  for (std::int64_t day = bucketStart(from, kDay); day <= bucketStart(to, kDay); day += kDay) {
    if (covered(day)) continue;
    const std::string name = dayPartitionName(day);
    const std::string lo = std::to_string(day), hi = std::to_string(day + kDay);
    const std::string range = "time >= " + lo + " AND time < " + hi;
    WriteTransaction tx(pool_);
    tx.session() << kLockTimeout, now;
    tx.lockAdvisory(kPartitionLockKey);
    if (isPartition(tx, name)) continue;  // another instance made it meanwhile
    // Created detached, filled with DEFAULT's rows of its day, then attached: attaching
    // takes a SHARE UPDATE EXCLUSIVE lock on price_points, so cycles and reads go on. The
    // CHECK mirrors the bound, so the attach does not scan the new table to prove it.
    tx.session() << "CREATE TABLE " + name +
                        " (LIKE price_points INCLUDING DEFAULTS INCLUDING CONSTRAINTS, "
                        "CONSTRAINT " +
                        name + "_bound CHECK (" + range + "))",
        now;
    tx.session() << "WITH moved AS (DELETE FROM price_points_default WHERE " + range +
                        " RETURNING *) INSERT INTO " + name + " SELECT * FROM moved",
        now;
    tx.session() << "ALTER TABLE price_points ATTACH PARTITION " + name + " FOR VALUES FROM (" +
                        lo + ") TO (" + hi + ")",
        now;
    tx.session() << "ALTER TABLE " + name + " DROP CONSTRAINT " + name + "_bound", now;
    tx.commit();
    ++created;
  }
  return created;
}

PartitionKeeper::DropPass PartitionKeeper::dropBefore(std::int64_t before,
                                                      std::int64_t keep_reference_at) {
  DropPass pass;
  for (const auto& partition : list()) {
    if (partition.is_default || !partition.to || *partition.to > before) continue;
    const std::string& name = partition.name;
    try {
      WriteTransaction tx(pool_);
      tx.session() << kLockTimeout, now;
      tx.lockAdvisory(kPartitionLockKey);
      if (!isPartition(tx, name)) continue;  // another instance dropped it meanwhile
      std::int64_t rows = 0;
      tx.session() << "SELECT CAST(reltuples AS BIGINT) FROM pg_class WHERE oid = to_regclass('" +
                          name + "')",
          into(rows), now;
      // The keepers are read before the exclusive lock is taken, with no scan of the day.
      const std::string keep_at = std::to_string(keep_reference_at);
      const std::string keepers =
          partition.from
              // A day: the close of each series' daily bar of that day (its newest trusted
              // point), unless a later daily bar opens at or before keep_reference_at.
              ? "SELECT p.* FROM " + name +
                    " p JOIN price_rollups_daily d ON p.item_id = d.item_id AND p.source = "
                    "d.source AND p.time = d.close_time WHERE d.start = " +
                    std::to_string(*partition.from) +
                    " AND NOT EXISTS (SELECT 1 FROM price_rollups_daily n WHERE n.item_id = "
                    "d.item_id AND n.source = d.source AND n.start > d.start AND n.open_time <= " +
                    keep_at + ")"
              // The legacy partition (migration 010), dropped once: the newest point of each
              // series in it, unless a later point exists up to keep_reference_at.
              : "SELECT DISTINCT ON (p.item_id, p.source) p.* FROM " + name +
                    " p WHERE NOT EXISTS (SELECT 1 FROM price_points q WHERE q.item_id = "
                    "p.item_id AND q.source = p.source AND q.time >= " +
                    std::to_string(*partition.to) + " AND q.time <= " + keep_at +
                    ") ORDER BY p.item_id, p.source, p.time DESC";
      tx.session() << "CREATE TEMP TABLE price_points_keepers ON COMMIT DROP AS " + keepers, now;
      tx.session() << "ALTER TABLE price_points DETACH PARTITION " + name, now;
      Poco::Data::Statement keep(tx.session());
      keep << "INSERT INTO price_points SELECT * FROM price_points_keepers";
      pass.kept += keep.execute();
      tx.session() << "DROP TABLE " + name, now;
      tx.commit();
      ++pass.dropped;
      pass.rows += static_cast<std::size_t>(std::max<std::int64_t>(rows, 0));
    } catch (const std::exception& e) {
      if (!isLockTimeout(e)) throw;
      log::main().warn("retention: partition {} is busy, dropped at the next pass", name);
      pass.blocked = true;
      break;
    }
  }
  return pass;
}

}  // namespace skinpulse::store::postgres
