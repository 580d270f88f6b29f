#pragma once

// LatestPrices: for every (item, source), the newest stored point and the time of the
// one before it. That second time answers "does this source have >= 2 points in the
// last 24 h?" (docs/api.md §3.1) without touching the database on a request.

#include "store/PriceStore.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace skinpulse::prices {

struct SourceLatest {
  store::PricePoint newest;
  std::optional<std::int64_t> previous_time;
  /// The price of the newest point not flagged as an outlier (docs/api.md §12): what the
  /// next point of the source is compared with, and what valuation uses instead of a
  /// flagged newest point. Empty when every point seen is flagged.
  std::optional<std::int64_t> trusted_price = std::nullopt;
};

/// Folds one point into the per-source entries of an item (sorted by source): a newer
/// point replaces the newest, an older one may move previous_time, an unflagged copy of a
/// flagged newest point clears its flag. Returns true when the source is new to the item.
bool foldLatest(std::vector<SourceLatest>& sources, const store::PricePoint& point);

class LatestPrices {
 public:
  /// What readers see: immutable, replaced as a whole after each cycle. Items share
  /// their per-source vectors with the previous snapshot unless the cycle touched them,
  /// so a swap copies pointers, not prices.
  struct Snapshot {
    std::unordered_map<std::int64_t, std::shared_ptr<const std::vector<SourceLatest>>> by_item;
    std::vector<std::string> source_names;  ///< sorted, unique
  };

  LatestPrices();

  /// Replaces everything (at start, and after a backfill, from the store).
  void reset(const std::vector<store::PriceStore::Latest>& rows);
  /// Folds newly stored points in; older or duplicate points change only previous_time.
  /// Readers keep the previous snapshot until the new one is complete.
  void apply(const std::vector<store::PricePoint>& points);

  /// Called before each point is folded into its item's entries (sorted by source), with
  /// the entries as they stand and the point's index: may change the entries and, through
  /// the caller's own reference, the point (docs/api.md §12: outlier flags).
  using FoldHook = std::function<void(std::vector<SourceLatest>& entries, std::size_t index)>;
  /// The current snapshot with `points` folded in, `hook` asked first for each, not yet
  /// visible to readers: the ingest cycle prepares before it stores and commits after,
  /// its one writer in between. The per-item copies apply() makes anyway are where the
  /// hook works, so it adds no pass over the prices.
  std::shared_ptr<const Snapshot> prepare(const std::vector<store::PricePoint>& points,
                                          const FoldHook& hook) const;
  void commit(std::shared_ptr<const Snapshot> next);
  /// prepare() on any snapshot (backfills and tests judge on a copy).
  static std::shared_ptr<const Snapshot> foldInto(const Snapshot& base,
                                                  const std::vector<store::PricePoint>& points,
                                                  const FoldHook& hook);

  std::shared_ptr<const Snapshot> snapshot() const {
    std::lock_guard lock(current_mutex_);
    return current_;
  }

  /// The newest point of every source of one item, ordered by source name.
  std::vector<SourceLatest> of(std::int64_t item_id) const;
  /// Every source name seen, sorted. Kept up to date as points arrive: item detail asks
  /// on every request.
  std::vector<std::string> sourceNames() const;

 private:
  void publish(std::shared_ptr<const Snapshot> next);

  std::mutex writer_;  ///< apply() and reset() build the next snapshot one at a time
  // A mutex held for a pointer copy, not std::atomic<std::shared_ptr>: see Catalog.hpp
  // (libstdc++ 12's spin lock).
  mutable std::mutex current_mutex_;
  std::shared_ptr<const Snapshot> current_;
};

/// The primitive of PricePolicy::referenceOrder(), which consumers ask instead.
/// The reference order of docs/api.md §3.1: `configured` when set, else the enabled
/// source instances in configuration order followed by every other known source name,
/// alphabetically.
std::vector<std::string> referenceOrder(const std::vector<std::string>& configured,
                                        const std::vector<std::string>& enabled_sources,
                                        const std::vector<std::string>& known_sources);

struct CurrentPrice {
  std::optional<std::int64_t> price;
  std::optional<std::string> source;
};

/// current_price: the newest price of the first source in `order` that has at least two
/// points in (now - 24h, now]; otherwise the newest price of any source.
CurrentPrice currentPrice(const std::vector<SourceLatest>& latest,
                          const std::vector<std::string>& order, std::int64_t now);

/// `latest` with each flagged newest point replaced by its source's trusted price (the
/// entry dropped when there is none): the primitive of PricePolicy::trustedLatest(), which
/// applies it when the policy excludes outliers.
std::vector<SourceLatest> withoutOutliers(std::vector<SourceLatest> latest);

}  // namespace skinpulse::prices
