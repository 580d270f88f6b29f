#pragma once

// The streaming write of a backfill (PriceStore::BackfillWriter) on the SQL stores: one
// transaction for the whole file, taken when the first chunk is ready. SQLite: one
// prepared INSERT reused for every point (SqlitePointInserter, also a cycle's insert), bound column
// by column (no per-chunk SQL text, no Poco binding vectors); PostgreSQL: one COPY
// (postgres::CopyStream).

#include "store/ConnectionPool.hpp"
#include "store/PriceStore.hpp"
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
/// Clears the outlier flag of each point's stored key, in `tx`.
void clearOutlierFlags(WriteTransaction& tx, const std::vector<PricePoint>& points);

std::unique_ptr<PriceStore::BackfillWriter> openSqlBackfill(ConnectionPool& pool);

/// Price points into SQLite inside `tx` (which must outlive it) through SQLite's own API:
/// prepared multi-row INSERTs, reused for every call, bound column by column, in key
/// order. Used by a cycle's insert and by the backfill; ~2× Poco's binding vectors
/// (bench/README.md, "e2e/run.sh"). First observation of a key wins (ON CONFLICT DO
/// NOTHING). Returns the rows stored.
class SqlitePointInserter {
 public:
  explicit SqlitePointInserter(WriteTransaction& tx);
  ~SqlitePointInserter();
  SqlitePointInserter(const SqlitePointInserter&) = delete;
  SqlitePointInserter& operator=(const SqlitePointInserter&) = delete;

  std::size_t insert(const std::vector<PricePoint>& points);

 private:
  sqlite3_stmt* prepare(int rows);
  static void bindRow(sqlite3_stmt* statement, int row, const PricePoint& point);
  std::size_t step(sqlite3_stmt* statement);
  [[noreturn]] void fail();

  sqlite3* db_;
  sqlite3_stmt* many_ = nullptr;
  sqlite3_stmt* one_ = nullptr;
  std::vector<const PricePoint*> order_;
};

}  // namespace skinpulse::store
