#pragma once

#include "store/Ohlcv.hpp"
#include "store/Records.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store {

/// Price history keyed by (item_id, source, time). Thread-safe.
class PriceStore {
 public:
  virtual ~PriceStore() = default;

  /// Stores a batch in ONE transaction; a point whose key already exists is ignored
  /// (the first observation wins). Returns how many points were new. On error nothing
  /// of the batch is stored and the exception propagates.
  virtual std::size_t insert(const std::vector<PricePoint>& points) = 0;

  /// insert() for points that arrive outside the daemon's own cycles (skinpulsectl
  /// backfill): the same transaction also advances backfillRevision(), which a running
  /// daemon watches to reload its caches.
  virtual std::size_t insertBackfill(const std::vector<PricePoint>& points) = 0;
  /// 0 until the first backfill; grows by one with each.
  virtual std::int64_t backfillRevision() = 0;

  /// A backfill written as it streams: chunks of points added to ONE open transaction,
  /// committed by finish() with the advance of backfillRevision(). Destroyed before
  /// finish() (an exception, a refusal): nothing of it is stored.
  class BackfillWriter {
   public:
    virtual ~BackfillWriter() = default;
    virtual void add(const std::vector<PricePoint>& points) = 0;
    /// Points stored before (or added earlier) that a later point confirmed: their
    /// outlier flag is cleared in the same transaction, after the points are in.
    virtual void clearOutliers(const std::vector<PricePoint>& points) = 0;
    /// Commits; returns how many of the added points were new (the first of a key wins).
    virtual std::size_t finish() = 0;
  };
  /// SQL stores stream (a reused prepared statement on SQLite, COPY on PostgreSQL); the
  /// default collects everything and calls clearOutliers() and insertBackfill() at finish.
  /// Points with time < `raw_from` (older than the raw retention) go to the rollups only:
  /// the raw history would delete them at its next pass (docs/api.md §20). The default
  /// writer, for stores without rollups, ignores it.
  virtual std::unique_ptr<BackfillWriter> openBackfill(std::int64_t raw_from);
  /// Every point kept raw.
  std::unique_ptr<BackfillWriter> openBackfill() {
    return openBackfill(std::numeric_limits<std::int64_t>::min());
  }
  /// Clears the outlier flag of stored points, identified by (item_id, source, time): the
  /// next point of their source confirmed them (docs/api.md §12). One transaction.
  virtual void clearOutliers(const std::vector<PricePoint>& points) = 0;
  /// The time of the newest stored point, 0 when there is none (one index seek). A
  /// standby instance watches it to learn that the polling instance stored a cycle.
  virtual std::int64_t newestTime() = 0;

  /// Points of one item with time > since, optionally one source, ordered by time then
  /// source.
  virtual std::vector<PricePoint> history(std::int64_t item_id, std::int64_t since,
                                          const std::optional<std::string>& source) = 0;

  /// All points with time > since, ordered by item, source, time (rebuilding windows).
  virtual std::vector<PricePoint> pointsSince(std::int64_t since) = 0;

  /// The same points as pointsSince, in the same order, handed to `visit` in consecutive
  /// chunks of at most `chunk` points, so a caller folding a week of history (the metrics
  /// engine at start-up) never holds more than one chunk. Stores that can page override
  /// this; the default reads everything at once.
  using PointChunkVisitor = std::function<void(const std::vector<PricePoint>&)>;
  virtual void scanSince(std::int64_t since, std::size_t chunk, const PointChunkVisitor& visit) {
    (void)chunk;
    const auto points = pointsSince(since);
    if (!points.empty()) visit(points);
  }

  /// For every (item, source): its newest point and, when there is one, the time of the
  /// one before it. Loads the latest-price cache at start.
  struct Latest {
    PricePoint newest;
    std::optional<std::int64_t> previous_time;
    /// The price of the newest point not flagged as an outlier (docs/api.md §12).
    std::optional<std::int64_t> trusted_price = std::nullopt;
  };
  virtual std::vector<Latest> latestPerItemSource() = 0;

  /// Deletes at most `limit` points with time < before, oldest first, in one short
  /// transaction; returns how many. On PostgreSQL only the DEFAULT partition is pruned
  /// row by row: the day partitions go whole (maintainPartitions). Retention calls it repeatedly so
  /// no single delete holds the write lock long enough to stall a cycle. Each (item, source) keeps
  /// its newest point at or before `keep_reference_at` (now minus the longest metric window): the
  /// p_ref of percent_change (docs/api.md §3.2), which a series that has not traded since must
  /// still find, however old it is.
  virtual std::size_t deleteOlderThan(std::int64_t before, std::int64_t keep_reference_at,
                                      std::size_t limit) = 0;

  /// Storage kept by whole UTC days: on PostgreSQL, price_points' daily partitions
  /// (docs/adr/0026-partitions-and-rollups.md). Creates the missing days from the one of
  /// `now` to three days ahead, then drops every partition wholly before `before`, after
  /// moving each series' reference point (see deleteOlderThan) to the DEFAULT partition.
  /// A drop refused by a busy lock is left for the next pass (`blocked`). Stores without
  /// partitions do nothing; deleteOlderThan then does all the pruning.
  struct PartitionPass {
    std::size_t created = 0;  ///< day partitions created
    std::size_t dropped = 0;  ///< partitions dropped
    std::size_t kept = 0;     ///< reference points moved out of them first
    std::size_t rows = 0;     ///< rows the dropped partitions held (the planner's estimate)
    bool blocked = false;
  };
  virtual PartitionPass maintainPartitions(std::int64_t now, std::int64_t before,
                                           std::int64_t keep_reference_at) {
    (void)now, (void)before, (void)keep_reference_at;
    return {};
  }

  /// For every (item, source) with a point before `before`: the newest such point. The
  /// metrics engine's rebuild starts from these, so a window's p_ref is found even when it
  /// is older than the history the rebuild reads.
  virtual std::vector<PricePoint> newestBefore(std::int64_t before) = 0;

  /// Distinct source names present in the store, sorted.
  virtual std::vector<std::string> sourceNames() = 0;

  // ---- Rollups (docs/api.md §20) -------------------------------------------------------
  // Hourly and daily OHLCV bars per (item, source), outliers left out, maintained in the
  // transaction that stores the points (insert(), backfills, clearOutliers()).

  /// The bars of one series at `level` whose start is >= `from`, ordered by start.
  virtual std::vector<OhlcvBar> rollups(std::int64_t item_id, const std::string& source,
                                        RollupLevel level, std::int64_t from) = 0;
  /// Deletes the bars of `level` that start before `before`; returns how many.
  virtual std::size_t deleteRollupsBefore(RollupLevel level, std::int64_t before) = 0;

  // ---- The cycle log (docs/operations.md, "Run a fleet") -------------------------------
  // Every insert() records one entry in its own transaction, so a standby instance can
  // follow the polling one cycle by cycle instead of rebuilding from the whole history.

  /// The sequence number of the newest logged cycle, 0 when there is none.
  virtual std::int64_t lastCycleSeq() = 0;
  struct FollowedCycles {
    std::int64_t last_seq = 0;       ///< the newest cycle the points below cover
    std::vector<PricePoint> points;  ///< the points of every cycle after `seq`, by time
    /// false when the log no longer holds every cycle after `seq` (entries older than a
    /// day are pruned): the follower must reload from the whole history instead.
    bool complete = true;
  };
  /// The points the cycles after `seq` stored (up to `max_cycles` of them), ordered by
  /// time, then source, then item. A logged cycle is a range of times: the points are
  /// every stored point in the ranges of the cycles returned, which may include points of
  /// an earlier cycle or a backfill with times in the same range (a source that reports
  /// its own observation times), so a follower applies them idempotently, by key.
  virtual FollowedCycles cyclesAfter(std::int64_t seq, std::size_t max_cycles) = 0;
};

}  // namespace skinpulse::store
