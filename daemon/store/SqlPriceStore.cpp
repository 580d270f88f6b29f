#include "store/SqlPriceStore.hpp"

#include "common/Time.hpp"
#include "store/Rollups.hpp"
#include "store/SqlBackfillWriter.hpp"
#include "store/WriteTransaction.hpp"
#ifdef SKINPULSE_WITH_POSTGRES
#include "store/postgres/PostgresCopy.hpp"
#include "store/postgres/PostgresHistory.hpp"
#include "store/postgres/PostgresPartitions.hpp"
#endif

#include <Poco/Nullable.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {
namespace {

// The cycle log keeps a day; the kv key remembers the newest sequence number pruned.
constexpr std::int64_t kCycleLogSeconds = 86400;
constexpr const char* kCyclesPrunedKey = "prices.cycles_pruned_through";
// Day partitions kept ahead of now: a daemon down over a weekend still finds its days.
constexpr std::int64_t kPartitionsAheadDays = 3;

constexpr const char* kColumns = "item_id, source, time, price, volume, kind, listings, outlier";
// The stored text of a kind; the column's CHECK admits nothing else.
sdk::PriceKind kindFromText(const std::string& text) {
  return sdk::parsePriceKind(text).value_or(sdk::PriceKind::kAsk);
}

struct PointColumns {
  std::vector<std::int64_t> item_id;
  std::vector<std::string> source;
  std::vector<std::int64_t> time;
  std::vector<std::int64_t> price;
  std::vector<std::int64_t> volume;
  std::vector<std::string> kind;
  std::vector<Poco::Nullable<Poco::Int64>> listings;
  std::vector<std::int64_t> outlier;  ///< 0 or 1

  PricePoint row(std::size_t i) const {
    PricePoint point{item_id[i], source[i], time[i], price[i], volume[i]};
    point.kind = kindFromText(kind[i]);
    if (!listings[i].isNull()) point.listings = listings[i].value();
    point.outlier = outlier[i] != 0;
    return point;
  }
  std::vector<PricePoint> rows() const {
    std::vector<PricePoint> out;
    out.reserve(item_id.size());
    for (std::size_t i = 0; i < item_id.size(); ++i) out.push_back(row(i));
    return out;
  }
};

// `rest` is everything after FROM price_points, placeholders already adapted.
template <typename... Param>
PointColumns selectPoints(Poco::Data::Session& session, const std::string& rest, Param... params) {
  PointColumns c;
  Poco::Data::Statement statement(session);
  statement << std::string("SELECT ") + kColumns + " FROM price_points " + rest, into(c.item_id),
      into(c.source), into(c.time), into(c.price), into(c.volume), into(c.kind), into(c.listings),
      into(c.outlier);
  (statement.addBind(bind(params)), ...);
  statement.execute();
  return c;
}

}  // namespace

std::size_t SqlPriceStore::insert(const std::vector<PricePoint>& points) {
  return insertPoints(points, false);
}

std::size_t SqlPriceStore::insertBackfill(const std::vector<PricePoint>& points) {
  return insertPoints(points, true);
}

std::int64_t SqlPriceStore::backfillRevision() {
  std::vector<std::string> value;
  auto lease = pool_.read();
  lease.session() << pool_.sql(std::string("SELECT value FROM kv WHERE key = '") +
                               kBackfillRevisionKey + "'"),
      into(value), now;
  return value.empty() ? 0 : std::stoll(value.front());
}

std::int64_t SqlPriceStore::newestTime() {
  std::int64_t newest = 0;
  auto lease = pool_.read();
  lease.session() << "SELECT COALESCE(MAX(time), 0) FROM price_points", into(newest), now;
  return newest;
}

void SqlPriceStore::clearOutliers(const std::vector<PricePoint>& points) {
  if (points.empty()) return;
  WriteTransaction tx(pool_);
  clearOutlierFlags(tx, points);
  tx.commit();
}

std::unique_ptr<PriceStore::BackfillWriter> SqlPriceStore::openBackfill(std::int64_t raw_from) {
  return openSqlBackfill(pool_, raw_from);
}

std::size_t SqlPriceStore::insertPoints(const std::vector<PricePoint>& points, bool backfill) {
  if (points.empty()) return 0;
  WriteTransaction tx(pool_);
  std::size_t inserted = 0;
#ifdef SKINPULSE_WITH_POSTGRES
  // Always COPY on PostgreSQL: fast for a cycle's tens of thousands of points, and the
  // place where the item check that replaced the foreign key lives (migration 002). The
  // same statement merges the new points into their rollups.
  if (pool_.backend() == Backend::kPostgres) {
    inserted = postgres::copyInsertPoints(tx.session(), points);
  } else
#endif
  {
    // SQLite's own API rather than Poco's binding vectors: a 25,000-point cycle is the
    // store stage of the hot path (docs/adr/0021-cycle-latency.md). The rows really
    // inserted are folded into bars in process (store/Ohlcv's mergeBar) and merged into
    // the stored bars.
    RollupFold fold;
    {
      SqlitePointInserter inserter(tx);
      inserted = inserter.insert(points, &fold);
    }  // statements finalised before the commit
    writeRollups(tx, fold, RollupWrite::kMerge);
  }
  if (backfill) {
    advanceBackfillRevision(tx);
  } else if (inserted > 0) {
    logCycle(tx, points, inserted);
  }
  tx.commit();
  return inserted;
}

std::vector<PricePoint> SqlPriceStore::history(std::int64_t item_id, std::int64_t since,
                                               const std::optional<std::string>& source) {
  auto lease = pool_.read();
#ifdef SKINPULSE_WITH_POSTGRES
  if (pool_.backend() == Backend::kPostgres) {
    return postgres::selectItemPoints(lease.session(), item_id, since, source);
  }
#endif
  // SQLite reads in primary-key order (source, then time), which costs it no sort, and
  // we order by time in process: a stable sort keeps the sources of one instant in name
  // order, the contract's tie-break.
  auto points = source ? selectPoints(lease.session(),
                                      pool_.sql("WHERE item_id = ? AND source = ? AND time > ? "
                                                "ORDER BY source, time"),
                                      item_id, *source, since)
                             .rows()
                       : selectPoints(lease.session(),
                                      pool_.sql("WHERE item_id = ? AND time > ? "
                                                "ORDER BY source, time"),
                                      item_id, since)
                             .rows();
  std::stable_sort(points.begin(), points.end(),
                   [](const PricePoint& a, const PricePoint& b) { return a.time < b.time; });
  return points;
}

std::vector<PricePoint> SqlPriceStore::pointsSince(std::int64_t since) {
  auto lease = pool_.read();
  return selectPoints(lease.session(), pool_.sql("WHERE time > ? ORDER BY item_id, source, time"),
                      since)
      .rows();
}

void SqlPriceStore::scanSince(std::int64_t since, std::size_t chunk,
                              const PointChunkVisitor& visit) {
  // Keyset pages over the primary key (item_id, source, time): each page is one index
  // range scan starting after the last row of the previous one, whatever the table size.
  // Row-value comparison reads the same on SQLite and PostgreSQL.
  const auto limit = static_cast<Poco::Int64>(std::max<std::size_t>(chunk, 1));
  PointColumns page;
  {
    auto lease = pool_.read();
    page = selectPoints(lease.session(),
                        pool_.sql("WHERE time > ? ORDER BY item_id, source, time LIMIT ?"), since,
                        limit);
  }
  while (!page.item_id.empty()) {
    const std::size_t last = page.item_id.size() - 1;
    const std::int64_t item = page.item_id[last];
    const std::string source = page.source[last];
    const std::int64_t time = page.time[last];
    const bool full = page.item_id.size() >= static_cast<std::size_t>(limit);
    visit(page.rows());
    if (!full) break;
    auto lease = pool_.read();
    page = selectPoints(lease.session(),
                        pool_.sql("WHERE time > ? AND (item_id, source, time) > (?, ?, ?) "
                                  "ORDER BY item_id, source, time LIMIT ?"),
                        since, item, source, time, limit);
  }
}

std::vector<PriceStore::Latest> SqlPriceStore::latestPerItemSource() {
  // A loose index scan: the recursive part hops from one (item, source) key prefix to the
  // next with one index seek each, and two more seeks find the newest point and the one
  // before it. The cost follows the number of series, not of points: at 2M points it
  // took 0.56 s on SQLite where a window function over the table took 3.0 s (PostgreSQL
  // 0.9 s against 1.2 s), and the gap grows with the 30 days of retained history.
  // Row-value comparison and scalar subqueries mean the same text on both backends.
  PointColumns c;
  std::vector<Poco::Nullable<std::int64_t>> previous;
  std::vector<Poco::Nullable<std::int64_t>> trusted;
  auto lease = pool_.read();
  lease.session() << "WITH RECURSIVE series(item_id, source) AS ("
                     " SELECT * FROM (SELECT item_id, source FROM price_points"
                     "  ORDER BY item_id, source LIMIT 1) AS first_series"
                     " UNION ALL"
                     " SELECT (SELECT n.item_id FROM price_points n"
                     "   WHERE (n.item_id, n.source) > (series.item_id, series.source)"
                     "   ORDER BY n.item_id, n.source LIMIT 1),"
                     "  (SELECT n.source FROM price_points n"
                     "   WHERE (n.item_id, n.source) > (series.item_id, series.source)"
                     "   ORDER BY n.item_id, n.source LIMIT 1)"
                     " FROM series WHERE series.item_id IS NOT NULL)"
                     " SELECT p.item_id, p.source, p.time, p.price, p.volume, p.kind, p.listings,"
                     "  p.outlier,"
                     "  (SELECT q.time FROM price_points q"
                     "   WHERE q.item_id = p.item_id AND q.source = p.source AND q.time < p.time"
                     "   ORDER BY q.time DESC LIMIT 1) AS previous_time,"
                     // The newest unflagged price: p's own unless p is an outlier, when
                     // the backward scan stops at the first trusted point.
                     "  (SELECT t.price FROM price_points t"
                     "   WHERE t.item_id = p.item_id AND t.source = p.source AND t.time <= p.time"
                     "   AND t.outlier = 0 ORDER BY t.time DESC LIMIT 1) AS trusted_price"
                     " FROM series JOIN price_points p"
                     "  ON p.item_id = series.item_id AND p.source = series.source"
                     "  AND p.time = (SELECT MAX(m.time) FROM price_points m"
                     "   WHERE m.item_id = series.item_id AND m.source = series.source)"
                     " ORDER BY p.item_id, p.source",
      into(c.item_id), into(c.source), into(c.time), into(c.price), into(c.volume), into(c.kind),
      into(c.listings), into(c.outlier), into(previous), into(trusted), now;
  std::vector<Latest> latest;
  latest.reserve(c.item_id.size());
  for (std::size_t i = 0; i < c.item_id.size(); ++i) {
    Latest entry{c.row(i), std::nullopt};
    if (!previous[i].isNull()) entry.previous_time = previous[i].value();
    if (!trusted[i].isNull()) entry.trusted_price = trusted[i].value();
    latest.push_back(std::move(entry));
  }
  return latest;
}

std::size_t SqlPriceStore::deleteOlderThan(std::int64_t before, std::int64_t keep_reference_at,
                                           std::size_t limit) {
  WriteTransaction tx(pool_);
  // PostgreSQL: the tables that are not whole days, the DEFAULT partition and the
  // pre-partitioning table until it is dropped whole (migration 010); the day partitions
  // go whole (maintainPartitions). Before migration 010, the one table.
  std::vector<std::string> tables = {"price_points"};
  if (pool_.backend() == Backend::kPostgres) {
    std::vector<std::string> found;
    tx.session() << "SELECT c.relname FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid "
                    "WHERE i.inhparent = to_regclass('price_points') "
                    "AND c.relname IN ('price_points_default', 'price_points_legacy') "
                    "ORDER BY c.relname",
        into(found), now;
    if (!found.empty()) tables = std::move(found);
  }
  std::size_t deleted = 0;
  for (const auto& table : tables) {
    if (deleted >= limit) break;
    Poco::Data::Statement statement(tx.session());
    const auto batch = static_cast<Poco::Int64>(limit - deleted);
    // The time index finds the oldest rows; the key deletes exactly those. A point goes
    // only when a newer point of its series (in any partition) is at or before
    // keep_reference_at, so the newest one there, the series' p_ref, always stays (one
    // key seek per candidate).
    statement << tx.sql("DELETE FROM " + table +
                        " WHERE (item_id, source, time) IN "
                        "(SELECT p.item_id, p.source, p.time FROM " +
                        table +
                        " p WHERE p.time < ? "
                        "AND EXISTS (SELECT 1 FROM price_points q WHERE q.item_id = p.item_id "
                        "AND q.source = p.source AND q.time > p.time AND q.time <= ?) "
                        "ORDER BY p.time LIMIT ?)"),
        bind(before), bind(keep_reference_at), bind(batch);
    deleted += statement.execute();
  }
  tx.commit();
  return deleted;
}

PriceStore::PartitionPass SqlPriceStore::maintainPartitions(std::int64_t now, std::int64_t before,
                                                            std::int64_t keep_reference_at) {
  PartitionPass pass;
#ifdef SKINPULSE_WITH_POSTGRES
  if (pool_.backend() == Backend::kPostgres) {
    postgres::PartitionKeeper keeper(pool_);
    // Every day the raw retention keeps has its partition, not only the days ahead: a
    // backfill of the last weeks lands in its days (moved out of DEFAULT by this pass)
    // rather than growing DEFAULT, which only row-by-row retention prunes. At open
    // (no cut-off) only today and the days ahead are made.
    const std::int64_t first_day = before > 0 && before < now ? before : now;
    pass.created = keeper.ensureDays(first_day, now + kPartitionsAheadDays * 86400);
    const auto dropped = keeper.dropBefore(before, keep_reference_at);
    pass.dropped = dropped.dropped;
    pass.kept = dropped.kept;
    pass.rows = dropped.rows;
    pass.blocked = dropped.blocked;
  }
#endif
  (void)now, (void)before, (void)keep_reference_at;
  return pass;
}

std::vector<PricePoint> SqlPriceStore::newestBefore(std::int64_t before) {
  auto lease = pool_.read();
  return selectPoints(lease.session(),
                      pool_.sql("p JOIN (SELECT item_id AS i, source AS s, MAX(time) AS t "
                                "FROM price_points WHERE time < ? GROUP BY item_id, source) m "
                                "ON p.item_id = m.i AND p.source = m.s AND p.time = m.t "
                                "ORDER BY p.item_id, p.source"),
                      before)
      .rows();
}

std::vector<std::string> SqlPriceStore::sourceNames() {
  std::vector<std::string> names;
  auto lease = pool_.read();
  lease.session() << "SELECT DISTINCT source FROM price_points ORDER BY source", into(names), now;
  return names;
}

std::vector<OhlcvBar> SqlPriceStore::rollups(std::int64_t item_id, const std::string& source,
                                             RollupLevel level, std::int64_t from) {
  std::vector<std::int64_t> start, open, high, low, close, volume, samples, open_time, close_time;
  auto lease = pool_.read();
  std::string name = source;
  lease.session() << pool_.sql(std::string("SELECT start, open, high, low, close, volume, samples, "
                                           "open_time, close_time FROM ") +
                               rollupTable(level) +
                               " WHERE item_id = ? AND source = ? AND start >= ? ORDER BY start"),
      into(start), into(open), into(high), into(low), into(close), into(volume), into(samples),
      into(open_time), into(close_time), bind(item_id), bind(name), bind(from), now;
  std::vector<OhlcvBar> bars(start.size());
  for (std::size_t i = 0; i < bars.size(); ++i) {
    bars[i] = OhlcvBar{start[i],  open[i],    high[i],      low[i],       close[i],
                       volume[i], samples[i], open_time[i], close_time[i]};
  }
  return bars;
}

std::size_t SqlPriceStore::deleteRollupsBefore(RollupLevel level, std::int64_t before) {
  WriteTransaction tx(pool_);
  Poco::Data::Statement statement(tx.session());
  statement << tx.sql(std::string("DELETE FROM ") + rollupTable(level) + " WHERE start < ?"),
      bind(before);
  const std::size_t deleted = statement.execute();
  tx.commit();
  return deleted;
}

void SqlPriceStore::logCycle(WriteTransaction& tx, const std::vector<PricePoint>& points,
                             std::size_t inserted) {
  const auto [lowest, highest] =
      std::minmax_element(points.begin(), points.end(),
                          [](const PricePoint& a, const PricePoint& b) { return a.time < b.time; });
  const std::int64_t stored_at = time::nowSeconds();
  const std::int64_t min_time = lowest->time;
  const std::int64_t max_time = highest->time;
  const auto count = static_cast<std::int64_t>(inserted);
  tx.session() << tx.sql(
      "INSERT INTO ingest_cycles (stored_at, min_time, max_time, points) "
      "VALUES (?, ?, ?, ?)"),
      bind(stored_at), bind(min_time), bind(max_time), bind(count), now;
  // The log keeps a day. The newest sequence number pruned is remembered, so a follower
  // further behind than that learns it must reload (FollowedCycles::complete).
  const std::int64_t keep_from = stored_at - kCycleLogSeconds;
  std::vector<Poco::Nullable<std::int64_t>> pruned;
  tx.session() << tx.sql("SELECT MAX(seq) FROM ingest_cycles WHERE stored_at < ?"), into(pruned),
      bind(keep_from), now;
  if (pruned.empty() || pruned.front().isNull()) return;
  const std::string through = std::to_string(pruned.front().value());
  tx.session() << tx.sql(std::string("INSERT INTO kv (key, value, expires_at) VALUES ('") +
                         kCyclesPrunedKey + "', '" + through +
                         "', NULL) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
      now;
  tx.session() << tx.sql("DELETE FROM ingest_cycles WHERE seq <= ?"), bind(pruned.front().value()),
      now;
}

std::int64_t SqlPriceStore::prunedCycleSeq(Poco::Data::Session& session) {
  std::vector<std::string> value;
  session << pool_.sql(std::string("SELECT value FROM kv WHERE key = '") + kCyclesPrunedKey + "'"),
      into(value), now;
  return value.empty() ? 0 : std::stoll(value.front());
}

std::int64_t SqlPriceStore::lastCycleSeq() {
  std::int64_t last = 0;
  auto lease = pool_.read();
  lease.session() << "SELECT COALESCE(MAX(seq), 0) FROM ingest_cycles", into(last), now;
  return std::max(last, prunedCycleSeq(lease.session()));
}

PriceStore::FollowedCycles SqlPriceStore::cyclesAfter(std::int64_t seq, std::size_t max_cycles) {
  FollowedCycles followed;
  followed.last_seq = seq;
  std::vector<std::int64_t> seqs, min_times, max_times;
  auto lease = pool_.read();
  const auto limit = static_cast<Poco::Int64>(std::max<std::size_t>(max_cycles, 1));
  lease.session() << pool_.sql(
      "SELECT seq, min_time, max_time FROM ingest_cycles WHERE seq > ? "
      "ORDER BY seq LIMIT ?"),
      into(seqs), into(min_times), into(max_times), bind(seq), bind(limit), now;
  followed.complete = seq >= prunedCycleSeq(lease.session());
  if (seqs.empty()) return followed;
  followed.last_seq = seqs.back();
  const std::int64_t from = *std::min_element(min_times.begin(), min_times.end());
  const std::int64_t to = *std::max_element(max_times.begin(), max_times.end());
  auto points = selectPoints(lease.session(),
                             pool_.sql("WHERE time >= ? AND time <= ? ORDER BY time"), from, to)
                    .rows();
  std::sort(points.begin(), points.end(), [](const PricePoint& a, const PricePoint& b) {
    return std::tie(a.time, a.source, a.item_id) < std::tie(b.time, b.source, b.item_id);
  });
  followed.points = std::move(points);
  return followed;
}

}  // namespace skinpulse::store
