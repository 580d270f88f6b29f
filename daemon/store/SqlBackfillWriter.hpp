#pragma once

// The streaming write of a backfill (PriceStore::BackfillWriter) on the SQL stores: one
// transaction for the whole file, taken when the first chunk is ready. SQLite: one
// prepared INSERT reused for every point (SqlitePointInserter, also a cycle's insert), bound column
// by column (no per-chunk SQL text, no Poco binding vectors); PostgreSQL: one COPY
// (postgres::CopyStream).

#include "store/ConnectionPool.hpp"
#include "store/PriceStore.hpp"
#include "store/Rollups.hpp"
#include "store/WriteTransaction.hpp"

#include <memory>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace skinpulse::store {

/// The kv key of PriceStore::backfillRevision().
inline constexpr const char* kBackfillRevisionKey = "prices.backfill_revision";
/// Advances the backfill revision in `tx`, so the points and the revision appear together.
void advanceBackfillRevision(WriteTransaction& tx);
/// Clears the outlier flag of each point's stored key, in `tx`, and merges the points
/// whose flag really flipped into their rollups (an outlier never entered one).
void clearOutlierFlags(WriteTransaction& tx, const std::vector<PricePoint>& points);

/// Points with time < `raw_from` go to the rollups only (history older than the raw
/// retention); the others are stored as raw points and merged into their rollups.
std::unique_ptr<PriceStore::BackfillWriter> openSqlBackfill(ConnectionPool& pool,
                                                            std::int64_t raw_from);

/// Price points into SQLite inside `tx` (which must outlive it) through SQLite's own API:
/// prepared multi-row INSERTs, reused for every call, bound column by column, in key
/// order. Used by a cycle's insert and by the backfill; ~2× Poco's binding vectors
/// (bench/README.md, "e2e/run.sh"). First observation of a key wins (ON CONFLICT DO
/// NOTHING). Returns the rows stored; the rows really stored (new keys) are folded into
/// `fold` when one is given (a duplicate never reaches a rollup: a batch that meets one
/// is undone and inserted again with RETURNING).
class SqlitePointInserter {
 public:
  explicit SqlitePointInserter(WriteTransaction& tx);
  ~SqlitePointInserter();
  SqlitePointInserter(const SqlitePointInserter&) = delete;
  SqlitePointInserter& operator=(const SqlitePointInserter&) = delete;

  std::size_t insert(const std::vector<PricePoint>& points, RollupFold* fold = nullptr);

 private:
  sqlite3_stmt* prepare(const std::string& sql);
  /// Inserts the kRowsPerInsert points of order_ from `begin`; returns how many went in.
  std::size_t insertBatch(std::size_t begin, RollupFold* fold);
  static void bindRow(sqlite3_stmt* statement, int row, const PricePoint& point);
  /// Steps `statement` to its end, folding returned rows into `fold`; returns their count.
  std::size_t step(sqlite3_stmt* statement, RollupFold* fold);
  [[noreturn]] void fail();

  sqlite3* db_;
  sqlite3_stmt* many_ = nullptr;            ///< kRowsPerInsert rows, no RETURNING
  sqlite3_stmt* many_returning_ = nullptr;  ///< the same with RETURNING
  sqlite3_stmt* one_ = nullptr;             ///< one row, no RETURNING
  sqlite3_stmt* savepoint_ = nullptr;
  sqlite3_stmt* release_ = nullptr;
  sqlite3_stmt* rollback_ = nullptr;
  std::vector<const PricePoint*> order_;
};

}  // namespace skinpulse::store
