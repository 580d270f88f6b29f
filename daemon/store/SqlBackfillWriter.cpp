#include "store/SqlBackfillWriter.hpp"

#ifdef SKINPULSE_WITH_POSTGRES
#include "store/postgres/PostgresCopy.hpp"
#endif

#include <Poco/Data/SQLite/Utility.h>

#include <algorithm>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <tuple>

using Poco::Data::Keywords::bind;
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

std::string insertSql(int rows) {
  std::string sql =
      "INSERT INTO price_points (item_id, source, time, price, volume, kind, listings, "
      "outlier) VALUES ";
  for (int i = 0; i < rows; ++i) sql += i == 0 ? "(?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?)";
  return sql + " ON CONFLICT DO NOTHING";
}

}  // namespace

SqlitePointInserter::SqlitePointInserter(WriteTransaction& tx)
    : db_(Poco::Data::SQLite::Utility::dbHandle(tx.session())) {
  many_ = prepare(kRowsPerInsert);
  one_ = prepare(1);
}

SqlitePointInserter::~SqlitePointInserter() {
  sqlite3_finalize(many_);
  sqlite3_finalize(one_);
}

std::size_t SqlitePointInserter::insert(const std::vector<PricePoint>& points) {
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
    for (int row = 0; row < kRowsPerInsert; ++row) bindRow(many_, row, *order_[i + row]);
    stored += step(many_);
  }
  for (; i < order_.size(); ++i) {
    bindRow(one_, 0, *order_[i]);
    stored += step(one_);
  }
  return stored;
}

sqlite3_stmt* SqlitePointInserter::prepare(int rows) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v3(db_, insertSql(rows).c_str(), -1, SQLITE_PREPARE_PERSISTENT, &statement,
                         nullptr) != SQLITE_OK) {
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

std::size_t SqlitePointInserter::step(sqlite3_stmt* statement) {
  const int rc = sqlite3_step(statement);
  sqlite3_reset(statement);
  if (rc != SQLITE_DONE) fail();
  return static_cast<std::size_t>(sqlite3_changes(db_));
}

void SqlitePointInserter::fail() {
  throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db_));
}

namespace {

class SqliteBackfillWriter final : public PriceStore::BackfillWriter {
 public:
  explicit SqliteBackfillWriter(ConnectionPool& pool)
      : tx_(pool), db_(Poco::Data::SQLite::Utility::dbHandle(tx_.session())), inserter_(tx_) {
    sqlite3_stmt* cache = nullptr;
    if (sqlite3_prepare_v2(db_, "PRAGMA cache_size", -1, &cache, nullptr) == SQLITE_OK &&
        sqlite3_step(cache) == SQLITE_ROW) {
      cache_size_ = sqlite3_column_int(cache, 0);
    }
    sqlite3_finalize(cache);
    exec("PRAGMA cache_size = -" + std::to_string(kBackfillCacheKiB));
  }
  ~SqliteBackfillWriter() override { exec("PRAGMA cache_size = " + std::to_string(cache_size_)); }

  void add(const std::vector<PricePoint>& chunk) override { stored_ += inserter_.insert(chunk); }
  void clearOutliers(const std::vector<PricePoint>& points) override {
    confirmed_.insert(confirmed_.end(), points.begin(), points.end());
  }
  std::size_t finish() override {
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
  int cache_size_ = -2000;
  std::size_t stored_ = 0;
  std::vector<PricePoint> confirmed_;  ///< rare: points a later one confirmed
};

#ifdef SKINPULSE_WITH_POSTGRES
class PostgresBackfillWriter final : public PriceStore::BackfillWriter {
 public:
  explicit PostgresBackfillWriter(ConnectionPool& pool)
      : tx_(pool), copy_(std::make_unique<postgres::CopyStream>(tx_.session())) {}

  void add(const std::vector<PricePoint>& points) override { copy_->add(points); }
  void clearOutliers(const std::vector<PricePoint>& points) override {
    confirmed_.insert(confirmed_.end(), points.begin(), points.end());
  }
  std::size_t finish() override {
    const std::size_t stored = copy_->finish();  // the connection is free again after it
    copy_.reset();
    clearOutlierFlags(tx_, confirmed_);
    advanceBackfillRevision(tx_);
    tx_.commit();
    return stored;
  }

 private:
  WriteTransaction tx_;
  std::unique_ptr<postgres::CopyStream> copy_;  ///< destroyed (COPY aborted) before tx_
  std::vector<PricePoint> confirmed_;
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
  // Rare (a confirmed spike): one keyed update per point.
  for (const auto& p : points) {
    tx.session() << tx.sql(
        "UPDATE price_points SET outlier = 0 "
        "WHERE item_id = ? AND source = ? AND time = ?"),
        bind(p.item_id), bind(p.source), bind(p.time), now;
  }
}

std::unique_ptr<PriceStore::BackfillWriter> openSqlBackfill(ConnectionPool& pool) {
#ifdef SKINPULSE_WITH_POSTGRES
  if (pool.backend() == Backend::kPostgres) return std::make_unique<PostgresBackfillWriter>(pool);
#endif
  return std::make_unique<SqliteBackfillWriter>(pool);
}

}  // namespace skinpulse::store
