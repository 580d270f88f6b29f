#pragma once

// Rollups: the hourly and daily bars the store keeps beside the raw points (docs/api.md
// §20, docs/adr/0026-partitions-and-rollups.md), and the pieces every write path shares:
// a fold of points into bars (store/Ohlcv's mergeBar, the one fold of the daemon) and the
// upsert that merges a bar into a stored one with the same open/close rules, so a bar is
// the same whatever order its points arrived in and whichever path wrote them.

#include "store/Ohlcv.hpp"
#include "store/Records.hpp"
#include "store/WriteTransaction.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace skinpulse::store {

/// "price_rollups_hourly", "price_rollups_daily".
const char* rollupTable(RollupLevel level);

/// The levels the store keeps, finest first.
inline constexpr RollupLevel kRollupLevels[] = {RollupLevel::kHour, RollupLevel::kDay};

/// The conflict clause of an INSERT INTO `table` that merges the new bar into the stored
/// one exactly as mergeBar(stored, new) does (the stored bar wins a tie of times). The
/// same text on SQLite and PostgreSQL.
std::string rollupMergeClause(std::string_view table);

/// A backfilled bar (`incoming`) against the bar of its bucket already stored: what the
/// stored bar becomes, or nothing when it stays as it is. Ranges [open_time, close_time]
/// that do not overlap are two parts of one bucket (a day split across two backfill
/// files): merged with mergeBar. Ranges that overlap are the same history imported again:
/// the bar with more samples wins (the stored one on a tie), so a re-import never counts
/// a point twice and a fuller file replaces a partial one.
std::optional<OhlcvBar> reconcileBar(const OhlcvBar& stored, const OhlcvBar& incoming);

/// The conflict clause that does what reconcileBar does (a row left as it is is not
/// updated, so RETURNING leaves it out). The same text on SQLite and PostgreSQL.
std::string rollupReconcileClause(std::string_view table);

/// Points folded into the bars of both levels, per (item, source, bucket start). Outliers
/// are left out: they never enter a rollup.
class RollupFold {
 public:
  using Key = std::tuple<std::int64_t, std::string, std::int64_t>;  ///< item, source, start
  using Bars = std::map<Key, OhlcvBar>;

  RollupFold() = default;
  // A copy or a move starts without a last bar: the pointers name the source's nodes.
  RollupFold(const RollupFold& other) : hour_(other.hour_), day_(other.day_) {}
  RollupFold(RollupFold&& other) noexcept
      : hour_(std::move(other.hour_)), day_(std::move(other.day_)) {
    other.forgetLast();
  }
  RollupFold& operator=(const RollupFold& other) {
    hour_ = other.hour_;
    day_ = other.day_;
    forgetLast();
    return *this;
  }
  RollupFold& operator=(RollupFold&& other) noexcept {
    hour_ = std::move(other.hour_);
    day_ = std::move(other.day_);
    forgetLast();
    other.forgetLast();
    return *this;
  }

  void add(std::int64_t item_id, std::string_view source, std::int64_t time, std::int64_t price,
           std::int64_t volume, bool outlier);
  void add(const PricePoint& point) {
    add(point.item_id, point.source, point.time, point.price, point.volume, point.outlier);
  }
  const Bars& bars(RollupLevel level) const { return level == RollupLevel::kHour ? hour_ : day_; }
  bool empty() const { return hour_.empty() && day_.empty(); }
  void clear() {
    hour_.clear();
    day_.clear();
    forgetLast();
  }
  /// Moves out the bars of `level` whose bucket ends at or before `time` (complete, when
  /// the points come in time order); the others stay.
  Bars takeEndedBy(RollupLevel level, std::int64_t time);

 private:
  Bars& mutableBars(RollupLevel level) { return level == RollupLevel::kHour ? hour_ : day_; }
  void forgetLast() { last_[0] = last_[1] = nullptr; }

  Bars hour_, day_;
  /// The bar each level touched last: points come in key order (an insert sorts them) or
  /// time order, so most points land in the bar of the point before them, found without
  /// a map lookup or a key string (a backfill's fold of 1M points spent its time there).
  Bars::value_type* last_[2] = {nullptr, nullptr};
};

/// How writeRollups treats a bar that is already stored.
enum class RollupWrite {
  kMerge,     ///< fold the new bar into it (points that were really new)
  kReconcile  ///< reconcileBar: history older than the raw points, maybe imported before
};

/// Writes `bars` of `level` in `tx`. Returns the samples the stored bars gained (with
/// kReconcile, a bar left as it is adds nothing and a replaced one its difference).
std::size_t writeRollups(WriteTransaction& tx, RollupLevel level, const RollupFold::Bars& bars,
                         RollupWrite mode);
/// Both levels of `fold`; returns the samples written at the hourly level.
std::size_t writeRollups(WriteTransaction& tx, const RollupFold& fold, RollupWrite mode);

}  // namespace skinpulse::store
