#pragma once

// Backfill: loads price history from JSON Lines
//   {"market_hash_name":"...","source":"...","time":"2026-11-22T10:15:00Z","price":123,"volume":4}
// with, optionally, "kind" (ask, the default, bid, sale, reference), "listings" (a count)
// and "variant" (docs/api.md §18: "Ruby", "Phase 2", …; the line is then the variant item's
// history, or the name's when the catalogue has no such variant of it) through the ingestion
// normaliser into the price store in one transaction (all or nothing). Lines that cannot be stored
// (unknown item, bad price, bad time) are counted by reason, with the first line of each reason,
// and skipped, never guessed.
//
// Memory does not grow with the file (docs/adr/0020-streaming-backfill.md): lines are read
// one at a time (BackfillReader), the valid points kept as compact records and put in
// time order by PointSpool (spilling sorted runs to a temporary file past 128 Ki points),
// then judged and written chunk by chunk through PriceStore::openBackfill().

#include "catalog/Catalog.hpp"
#include "prices/PricePolicy.hpp"
#include "store/PriceStore.hpp"

#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <string>

namespace skinpulse::ingest {

struct BackfillResult {
  std::size_t read = 0;                         ///< non-empty lines
  std::size_t stored = 0;                       ///< new points
  std::size_t duplicates = 0;                   ///< points already stored (same item, source, time)
  std::map<std::string, std::size_t> rejected;  ///< reason → count
  std::map<std::string, std::size_t> first_line;  ///< reason → its first line (1-based)
  /// Wall time of each stage, in ms: read (read, parse, normalise, sort runs), latest (the
  /// store's latest prices, for the outlier rules), write (merge, judge, insert), commit.
  double read_ms = 0, latest_ms = 0, write_ms = 0, commit_ms = 0;
};

/// Where a running backfill stands, for a progress display.
struct BackfillProgress {
  enum class Stage { kReading, kWriting } stage = Stage::kReading;
  std::uint64_t bytes = 0;  ///< read from the stream
  std::size_t lines = 0;    ///< non-empty lines read
  std::size_t points = 0;   ///< valid points
  std::size_t written = 0;  ///< points handed to the store
};
using BackfillProgressFn = std::function<void(const BackfillProgress&)>;

struct BackfillOptions {
  /// With rules, the points are flagged as a cycle would flag them, in time order, on top
  /// of the store's latest prices (a confirmed stored point is unflagged in the store).
  /// The outlier rules of docs/api.md §12 are this policy's freshness and factor, as the
  /// daemon's configuration sets them.
  const prices::PricePolicy* outliers = nullptr;
  /// Called every few thousand lines and points.
  BackfillProgressFn progress;
  /// Called once, after reading, when lines named items not in the catalogue: may bring
  /// the catalogue up to date and return it, and the file is then read again with it
  /// (the stream must seek). skinpulsectl seeds the catalogue file only then.
  std::function<std::unique_ptr<const catalog::CatalogSnapshot>()> refresh_catalog;
  /// [storage] retention_days: points older than the start of the UTC day `now` minus
  /// this many days go to the hourly and daily rollups only (docs/api.md §20), since the
  /// raw history would delete them at its next pass; the day boundary keeps every bar
  /// either fully raw-built or fully rollup-only. 0: every point is stored raw.
  int raw_retention_days = 30;
};

/// The first time a backfill stores raw with `raw_retention_days` at `now` (the minimum
/// of int64 when it is 0).
std::int64_t backfillRawFrom(std::int64_t now, int raw_retention_days);

/// `now` bounds observation times as for polled sources (at most five minutes ahead).
BackfillResult backfill(std::istream& in, const catalog::CatalogSnapshot& catalog,
                        store::PriceStore& prices, std::int64_t now,
                        const BackfillOptions& options = {});

}  // namespace skinpulse::ingest
