#include "store/SqlBackfillWriter.hpp"

#ifdef SKINPULSE_WITH_POSTGRES
#include "store/postgres/PostgresCopy.hpp"
#endif

#include <Poco/Data/SQLite/Utility.h>

#include <algorithm>
#include <limits>
#include <set>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {
namespace {

// Rows per INSERT: one statement per 64 rows spares SQLite 63 of the per-statement costs
// (cursor open and close, VDBE set-up and halt) that dominate a one-row INSERT; 64 × 8
// parameters stay far below SQLITE_MAX_VARIABLE_NUMBER.
constexpr int kRowsPerInsert = 256;
// Page cache of the writing connection while the backfill runs: the default 2 MiB makes
// SQLite spill dirty pages to the WAL mid-transaction and read them back. A fixed size,
// so memory does not grow with the file.
constexpr int kBackfillCacheKiB = 32 * 1024;

// `returning`: RETURNING names the rows really inserted, so those, and only those, enter
// the rollups. It costs: SQLite collects the returned rows in an ephemeral table first
// (a 256-row batch of 100,000 points took ~1.6–2 × as long with it; bench/README.md,
// "backfill", issue 32). Batches are tried without it (see insert()).
std::string insertSql(int rows, bool returning) {
  std::string sql =
      "INSERT INTO price_points (item_id, source, time, price, volume, kind, listings, "
      "outlier) VALUES ";
  for (int i = 0; i < rows; ++i) sql += i == 0 ? "(?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?)";
  sql += " ON CONFLICT DO NOTHING";
  if (returning) sql += " RETURNING item_id, source, time, price, volume, outlier";
  return sql;
}

}  // namespace

SqlitePointInserter::SqlitePointInserter(WriteTransaction& tx)
    : db_(Poco::Data::SQLite::Utility::dbHandle(tx.session())) {
  many_ = prepare(insertSql(kRowsPerInsert, false));
  many_returning_ = prepare(insertSql(kRowsPerInsert, true));
  one_ = prepare(insertSql(1, false));
  savepoint_ = prepare("SAVEPOINT point_batch");
  release_ = prepare("RELEASE point_batch");
  rollback_ = prepare("ROLLBACK TO point_batch");
}

SqlitePointInserter::~SqlitePointInserter() {
  for (auto* statement : {many_, many_returning_, one_, savepoint_, release_, rollback_}) {
    sqlite3_finalize(statement);
  }
}

std::size_t SqlitePointInserter::insert(const std::vector<PricePoint>& points, RollupFold* fold) {
  // In key order: consecutive inserts land on the same B-tree pages (a cycle or a backfill
  // chunk is one stretch of time; a stable sort keeps the first observation of a key first).
  order_.clear();
  for (const auto& point : points) order_.push_back(&point);
  std::stable_sort(order_.begin(), order_.end(), [](const PricePoint* a, const PricePoint* b) {
    return std::tie(a->item_id, a->source, a->time) < std::tie(b->item_id, b->source, b->time);
  });
  std::size_t stored = 0;
  std::size_t i = 0;
  for (; i + kRowsPerInsert <= order_.size(); i += kRowsPerInsert) {
    stored += insertBatch(i, fold);
  }
  // One row: the change count says exactly whether it went in.
  for (; i < order_.size(); ++i) {
    bindRow(one_, 0, *order_[i]);
    if (step(one_, nullptr) == 0 && sqlite3_changes(db_) == 1) {
      ++stored;
      if (fold != nullptr) fold->add(*order_[i]);
    }
  }
  return stored;
}

std::size_t SqlitePointInserter::insertBatch(std::size_t begin, RollupFold* fold) {
  const auto bindBatch = [&](sqlite3_stmt* statement) {
    for (int row = 0; row < kRowsPerInsert; ++row) bindRow(statement, row, *order_[begin + row]);
  };
  // Most batches are all new (a backfill of history not yet stored, a cycle's fresh
  // prices): inserted without RETURNING, and when every row went in the rollups fold the
  // input itself. A batch with a duplicate is undone and inserted again with RETURNING,
  // which names the rows that went in. The savepoint is what makes the undo possible.
  step(savepoint_, nullptr);
  bindBatch(many_);
  step(many_, nullptr);
  if (sqlite3_changes(db_) == kRowsPerInsert) {
    step(release_, nullptr);
    if (fold != nullptr) {
      for (int row = 0; row < kRowsPerInsert; ++row) fold->add(*order_[begin + row]);
    }
    return kRowsPerInsert;
  }
  step(rollback_, nullptr);
  bindBatch(many_returning_);
  const std::size_t stored = step(many_returning_, fold);
  step(release_, nullptr);
  return stored;
}

sqlite3_stmt* SqlitePointInserter::prepare(const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v3(db_, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr) !=
      SQLITE_OK) {
    fail();
  }
  return statement;
}

void SqlitePointInserter::bindRow(sqlite3_stmt* statement, int row, const PricePoint& p) {
  const int base = row * 8;
  const auto kind = sdk::priceKindName(p.kind);
  sqlite3_bind_int64(statement, base + 1, p.item_id);
  sqlite3_bind_text(statement, base + 2, p.source.data(), static_cast<int>(p.source.size()),
                    SQLITE_STATIC);
  sqlite3_bind_int64(statement, base + 3, p.time);
  sqlite3_bind_int64(statement, base + 4, p.price);
  sqlite3_bind_int64(statement, base + 5, p.volume);
  sqlite3_bind_text(statement, base + 6, kind.data(), static_cast<int>(kind.size()), SQLITE_STATIC);
  if (p.listings) {
    sqlite3_bind_int64(statement, base + 7, *p.listings);
  } else {
    sqlite3_bind_null(statement, base + 7);
  }
  sqlite3_bind_int(statement, base + 8, p.outlier ? 1 : 0);
}

std::size_t SqlitePointInserter::step(sqlite3_stmt* statement, RollupFold* fold) {
  std::size_t rows = 0;
  int rc = sqlite3_step(statement);
  for (; rc == SQLITE_ROW; rc = sqlite3_step(statement)) {
    ++rows;
    if (fold == nullptr) continue;
    const auto* source = reinterpret_cast<const char*>(sqlite3_column_text(statement, 1));
    fold->add(
        sqlite3_column_int64(statement, 0),
        std::string_view(source, static_cast<std::size_t>(sqlite3_column_bytes(statement, 1))),
        sqlite3_column_int64(statement, 2), sqlite3_column_int64(statement, 3),
        sqlite3_column_int64(statement, 4), sqlite3_column_int(statement, 5) != 0);
  }
  sqlite3_reset(statement);
  if (rc != SQLITE_DONE) fail();
  return rows;
}

void SqlitePointInserter::fail() {
  throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db_));
}

namespace {

// The points of a backfill older than the raw retention: folded into bars as they come
// (in time order), each bar written once its bucket is over, so memory holds one bucket
// per series whatever the length of the history.
class RollupOnlyFold {
 public:
  void add(const PricePoint& point) {
    // Points come in time order, so the duplicates of a key come at the same time: the
    // keys of the current time are enough to keep the first observation of each.
    if (point.time != current_time_) {
      current_time_ = point.time;
      keys_at_time_.clear();
    }
    if (!keys_at_time_.emplace(point.item_id, point.source).second) return;
    fold_.add(point);
  }
  /// A point flagged when it came and confirmed since: it joins its bars after all.
  void addConfirmed(PricePoint point) {
    point.outlier = false;
    fold_.add(point);
  }
  /// Writes the bars that ended by `time` (every bar when `time` is the end of time).
  std::size_t flush(WriteTransaction& tx, std::int64_t time) {
    std::size_t samples = 0;
    for (const auto level : kRollupLevels) {
      const auto ended = fold_.takeEndedBy(level, time);
      const std::size_t written = writeRollups(tx, level, ended, RollupWrite::kReconcile);
      if (level == RollupLevel::kHour) samples = written;
    }
    return samples;
  }

 private:
  RollupFold fold_;
  std::int64_t current_time_ = std::numeric_limits<std::int64_t>::min();
  std::set<std::pair<std::int64_t, std::string>> keys_at_time_;
};

class SqliteBackfillWriter final : public PriceStore::BackfillWriter {
 public:
  SqliteBackfillWriter(ConnectionPool& pool, std::int64_t raw_from)
      : tx_(pool),
        db_(Poco::Data::SQLite::Utility::dbHandle(tx_.session())),
        inserter_(tx_),
        raw_from_(raw_from) {
    sqlite3_stmt* cache = nullptr;
    if (sqlite3_prepare_v2(db_, "PRAGMA cache_size", -1, &cache, nullptr) == SQLITE_OK &&
        sqlite3_step(cache) == SQLITE_ROW) {
      cache_size_ = sqlite3_column_int(cache, 0);
    }
    sqlite3_finalize(cache);
    exec("PRAGMA cache_size = -" + std::to_string(kBackfillCacheKiB));
  }
  ~SqliteBackfillWriter() override { exec("PRAGMA cache_size = " + std::to_string(cache_size_)); }

  void add(const std::vector<PricePoint>& chunk) override {
    raw_.clear();
    std::int64_t newest = std::numeric_limits<std::int64_t>::min();
    for (const auto& point : chunk) {
      newest = std::max(newest, point.time);
      if (point.time < raw_from_) {
        old_.add(point);
      } else {
        raw_.push_back(point);
      }
    }
    stored_ += old_.flush(tx_, newest);
    if (raw_.empty()) return;
    // The chunk's new points merged into their bars in the same transaction.
    RollupFold fold;
    stored_ += inserter_.insert(raw_, &fold);
    writeRollups(tx_, fold, RollupWrite::kMerge);
  }
  void clearOutliers(const std::vector<PricePoint>& points) override {
    for (const auto& point : points) {
      if (point.time < raw_from_) {
        old_.addConfirmed(point);
      } else {
        confirmed_.push_back(point);
      }
    }
  }
  std::size_t finish() override {
    stored_ += old_.flush(tx_, std::numeric_limits<std::int64_t>::max());
    clearOutlierFlags(tx_, confirmed_);
    advanceBackfillRevision(tx_);
    tx_.commit();
    return stored_;
  }

 private:
  void exec(const std::string& sql) { sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr); }

  WriteTransaction tx_;
  sqlite3* db_;
  SqlitePointInserter inserter_;  ///< its statements are finalised before tx_ ends
  const std::int64_t raw_from_;
  int cache_size_ = -2000;
  std::size_t stored_ = 0;
  std::vector<PricePoint> raw_;        ///< the chunk's points kept raw (reused)
  RollupOnlyFold old_;                 ///< the points older than raw_from_
  std::vector<PricePoint> confirmed_;  ///< rare: points a later one confirmed
};

#ifdef SKINPULSE_WITH_POSTGRES
class PostgresBackfillWriter final : public PriceStore::BackfillWriter {
 public:
  PostgresBackfillWriter(ConnectionPool& pool, std::int64_t raw_from)
      : tx_(pool),
        copy_(std::make_unique<postgres::CopyStream>(tx_.session())),
        raw_from_(raw_from) {}

  void add(const std::vector<PricePoint>& points) override { copy_->add(points); }
  void clearOutliers(const std::vector<PricePoint>& points) override {
    for (const auto& point : points) {
      if (point.time < raw_from_) {
        PricePoint confirmed = point;
        confirmed.outlier = false;
        old_confirmed_.add(confirmed);
      } else {
        confirmed_.push_back(point);
      }
    }
  }
  std::size_t finish() override {
    // The connection is free again after the stream's finish.
    const std::size_t stored = copy_->finish(raw_from_);
    copy_.reset();
    writeRollups(tx_, old_confirmed_, RollupWrite::kMerge);
    clearOutlierFlags(tx_, confirmed_);
    advanceBackfillRevision(tx_);
    tx_.commit();
    return stored;
  }

 private:
  WriteTransaction tx_;
  std::unique_ptr<postgres::CopyStream> copy_;  ///< destroyed (COPY aborted) before tx_
  const std::int64_t raw_from_;
  std::vector<PricePoint> confirmed_;
  RollupFold old_confirmed_;  ///< rare: old points flagged in the stream, confirmed since
};
#endif

}  // namespace

void advanceBackfillRevision(WriteTransaction& tx) {
  tx.session() << tx.sql(std::string("INSERT INTO kv (key, value, expires_at) VALUES ('") +
                         kBackfillRevisionKey +
                         "', '1', NULL) ON CONFLICT (key) DO UPDATE SET value = "
                         "CAST(CAST(kv.value AS BIGINT) + 1 AS TEXT)"),
      now;
}

void clearOutlierFlags(WriteTransaction& tx, const std::vector<PricePoint>& points) {
  // Rare (a confirmed spike): one keyed read and update per point. Only a flag that
  // really flips adds the point to its rollups: a point confirmed twice, or never
  // flagged, is in them already.
  RollupFold fold;
  for (const auto& p : points) {
    std::vector<std::int64_t> price, volume;
    tx.session() << tx.sql(
        "SELECT price, volume FROM price_points "
        "WHERE item_id = ? AND source = ? AND time = ? AND outlier = 1"),
        into(price), into(volume), bind(p.item_id), bind(p.source), bind(p.time), now;
    if (price.empty()) continue;
    tx.session() << tx.sql(
        "UPDATE price_points SET outlier = 0 "
        "WHERE item_id = ? AND source = ? AND time = ?"),
        bind(p.item_id), bind(p.source), bind(p.time), now;
    fold.add(p.item_id, p.source, p.time, price.front(), volume.front(), false);
  }
  writeRollups(tx, fold, RollupWrite::kMerge);
}

std::unique_ptr<PriceStore::BackfillWriter> openSqlBackfill(ConnectionPool& pool,
                                                            std::int64_t raw_from) {
#ifdef SKINPULSE_WITH_POSTGRES
  if (pool.backend() == Backend::kPostgres) {
    return std::make_unique<PostgresBackfillWriter>(pool, raw_from);
  }
#endif
  return std::make_unique<SqliteBackfillWriter>(pool, raw_from);
}

}  // namespace skinpulse::store
