#pragma once

// BenchBackend: where bench_scale's two databases live and what it asks of them beside
// the daemon's store. Two databases of the same schema (both migrated by
// store::openDatabase): the STORE, written through store::SqlPriceStore, and the
// REFERENCE, written raw (PostgreSQL: libpq COPY; SQLite: one prepared INSERT through the
// C API) with the same rows. PostgreSQL: two fresh schemas in the given database;
// SQLite: two files in a scratch directory. Both removed by cleanup() unless kept.

#include "store/Records.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace skinpulse::bench {

/// Raw insertion of points into the reference database's price_points, one transaction
/// from begin() to commit().
class RawInserter {
 public:
  virtual ~RawInserter() = default;
  virtual std::string method() const = 0;
  virtual void begin() = 0;
  virtual void insert(const std::vector<store::PricePoint>& rows) = 0;
  virtual void commit() = 0;
};

/// Sizes on disk of one database's price tables.
struct TableSizes {
  std::int64_t raw_bytes = 0;  ///< price_points: every partition, its indexes and TOAST
  std::int64_t raw_rows = 0;
  std::int64_t partitions = 0;  ///< PostgreSQL: leaf partitions of price_points (0: plain table)
  std::int64_t hourly_bytes = -1, hourly_rows = -1;  ///< -1: no such table
  std::int64_t daily_bytes = -1, daily_rows = -1;
  std::int64_t file_bytes = -1;  ///< SQLite: the whole database file (after a checkpoint)
};

class BenchBackend {
 public:
  virtual ~BenchBackend() = default;

  /// `database`: `sqlite` (files in `scratch_dir`) or a PostgreSQL URL of a database
  /// dedicated to benchmarks.
  static std::unique_ptr<BenchBackend> create(const std::string& database,
                                              const std::string& scratch_dir);

  virtual std::string name() const = 0;  ///< "sqlite" or "postgresql"
  virtual std::string storeUrl() const = 0;
  virtual std::string referenceUrl() const = 0;
  /// After both databases are migrated and seeded.
  virtual std::unique_ptr<RawInserter> openReference() = 0;
  virtual TableSizes storeSizes() = 0;
  virtual TableSizes referenceSizes() = 0;
  /// What a running database has done by itself after a bulk load (PostgreSQL: autovacuum's
  /// VACUUM ANALYZE of the price tables; SQLite: a WAL checkpoint). Returns seconds.
  virtual double settle() = 0;
  virtual std::string where() const = 0;  ///< for --keep: what was left in place
  virtual void cleanup() = 0;
};

}  // namespace skinpulse::bench
