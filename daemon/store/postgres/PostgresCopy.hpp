#pragma once

// Bulk insert of price points on PostgreSQL through COPY.
//
// Multi-row INSERTs bound through Poco cost a parse, a plan and thousands of bound
// parameters per 1,000 rows: a 100,000-point cycle ran at 18 % of the raw COPY rate
// (bench/README.md). COPY into a per-connection temporary table followed by one
// INSERT ... SELECT ... ON CONFLICT DO NOTHING keeps the store's semantics (the first
// observation of a key wins, duplicates inside the batch included) at ~60 % of it.

#include "store/Records.hpp"

#include <Poco/Data/Session.h>

#include <cstddef>
#include <cstdint>
#include <libpq-fe.h>
#include <string>
#include <vector>

namespace skinpulse::store::postgres {

/// Inserts `points` inside the caller's open transaction on `session`, merging the new
/// ones into their rollups (store/Rollups.hpp) in the same statement; returns how many
/// were new. A point whose item is not in `items` refuses the whole batch. Throws
/// std::runtime_error with the reason on failure (the caller's transaction then rolls
/// back).
std::size_t copyInsertPoints(Poco::Data::Session& session, const std::vector<PricePoint>& points);

/// A backfill's points streamed into one COPY inside the caller's open transaction: rows
/// go to the server every kFlushBytes, so memory does not grow with the file. finish()
/// merges them into price_points (first observation of a key wins, stored points kept,
/// an unknown item refuses everything) and their rollups; points with time < raw_from go
/// to the rollups only (a bar already stored is kept). Returns how many were new (for the
/// rollup-only points: the samples of the bars written). The connection
/// can run nothing else between construction and finish().
class CopyStream {
 public:
  static constexpr std::size_t kFlushBytes = 1 << 20;

  explicit CopyStream(Poco::Data::Session& session);
  /// Without finish(): the COPY is aborted, so the caller's rollback can run.
  ~CopyStream();
  CopyStream(const CopyStream&) = delete;
  CopyStream& operator=(const CopyStream&) = delete;
  void add(const std::vector<PricePoint>& points);
  std::size_t finish(std::int64_t raw_from);

 private:
  void flush();

  PGconn* connection_;
  std::string buffer_;
  bool copying_ = true;
};

}  // namespace skinpulse::store::postgres
