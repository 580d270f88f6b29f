#pragma once

// MetricsEngine: keeps every (item, source) series pre-aggregated for the three windows
// (BucketLevel), folds each stored cycle in, and after it recomputes every item's
// Volatility metrics and the rankings into a new MetricsSnapshot (docs/api.md §3.1-3.2).
//
// It is the first CycleObserver of the ingestion cycle: the live-update hub added after
// it reads snapshot() for the cycle's volatility frames. A quiet daemon still slides its
// windows: a refresher thread recomputes when no cycle has for a while.
//
// Points reach the series once: a point not newer than its series' newest (the same
// observation reported again, or a late one) is left to the next start-up's rebuild,
// which reads the store in order.

#include "catalog/Catalog.hpp"
#include "common/PeriodicTask.hpp"
#include "ingest/CycleObserver.hpp"
#include "metrics/BucketLevel.hpp"
#include "metrics/MetricSet.hpp"
#include "metrics/MetricsSnapshot.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "store/PriceStore.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace skinpulse::metrics {

class MetricsEngine final : public ingest::CycleObserver {
 public:
  /// How far back rebuild() reads: the 7d window plus a day in which to find p_ref.
  static constexpr std::int64_t kHistorySeconds = 8 * 86400;

  /// `policy` decides the reference order and whether flagged points enter a series
  /// (docs/api.md §12); it must outlive the engine.
  MetricsEngine(const catalog::Catalog& catalog, const prices::LatestPrices& latest,
                MetricSet metrics, const prices::PricePolicy& policy);
  ~MetricsEngine() override;

  /// Replaces the series with the store's last kHistorySeconds and publishes a snapshot
  /// computed at `now`.
  void rebuild(store::PriceStore& prices, std::int64_t now);
  /// Folds points into the series (not yet published). `now` is the cycle's time: each
  /// series' windows move to it before its points are added, so no level ever holds
  /// more than its window, and a point older than a window only competes for its p_ref.
  void apply(const std::vector<store::PricePoint>& points, std::int64_t now);
  /// Recomputes every item at `now` and publishes the snapshot.
  void recompute(std::int64_t now);

  /// Gives back the growth slack of every series' buffers; rebuild() calls it once the
  /// history is in (from then on each window takes in about what it drops).
  void shrinkToFit();
  /// Bytes held by the series (an estimate: the objects and their buffers, not the
  /// allocator's own overhead).
  std::size_t seriesBytes() const;

  void onCycle(const ingest::CycleUpdate& update) override;
  /// The cycle's points folded in and its snapshot computed while the cycle is stored
  /// (`source_names`: the latest prices' sources with the cycle in); snapshot() shows it
  /// only after commit(). Abandoned (the store failed), the series are rebuilt from the
  /// store before the next computation.
  std::unique_ptr<ingest::PreparedCycle> prepareCycle(
      const ingest::CycleUpdate& update, const std::vector<std::string>& source_names) override;
  /// A standby's metrics follow the polling instance's cycles point by point.
  bool runsOnFollowedCycles() const override { return true; }
  /// Points arrived outside our cycles (a backfill, or the polling instance's cycles on a
  /// standby): rebuilds from the store rebuild() last read.
  void onReload() override;

  /// Recomputes every `period` in which no cycle did. stop/destruction ends the thread.
  void startRefresh(std::chrono::seconds period);
  void stopRefresh();

  /// The newest published snapshot; never null.
  std::shared_ptr<const MetricsSnapshot> snapshot() const;

  const MetricSet& metricSet() const { return metrics_; }

 private:
  struct Series {
    std::uint32_t source = 0;  ///< index into source_names_
    std::int64_t newest = -1;  ///< time of the newest point folded in
    std::array<BucketLevel, kWindowCount> levels;
  };

  struct Pass;  // what one recompute shares between its windows
  class Prepared;
  /// Computes every item at `now` with the reference order of `known_sources`; the
  /// caller holds state_mutex_ and publishes.
  std::shared_ptr<const MetricsSnapshot> computeLocked(
      std::int64_t now, const std::vector<std::string>& known_sources);
  /// After an abandoned cycle: the series again exactly the store's, as of `now`.
  void rebuildIfDirty(std::int64_t now);
  void fold(const store::PricePoint& point, std::int64_t now);
  /// Slides level `window` of every series to pass.now and renders that window.
  void computeWindow(const Pass& pass, std::size_t window, MetricsSnapshot::Window& out);
  std::uint32_t sourceId(const std::string& name);
  void publish(std::shared_ptr<const MetricsSnapshot> next);

  const catalog::Catalog& catalog_;
  const prices::LatestPrices& latest_;
  MetricSet metrics_;
  const prices::PricePolicy& policy_;
  /// coefficient_of_variation and percent_change in metrics_.fields(); without either
  /// (its plugin missing) the rankings stay empty.
  std::optional<std::size_t> score_field_;
  std::optional<std::size_t> percent_change_field_;
  /// bollinger.upper / bollinger.lower, for the alerts' bollinger_break (absent: 0).
  std::optional<std::size_t> upper_field_;
  std::optional<std::size_t> lower_field_;

  mutable std::mutex state_mutex_;  ///< the series: the ingestion thread and the refresher
  std::unordered_map<std::int64_t, std::vector<Series>> items_;
  std::vector<std::string> source_names_;
  std::unordered_map<std::string, std::uint32_t> source_ids_;
  std::int64_t last_compute_ = 0;
  bool pending_ = false;  ///< a prepared cycle's points are in the series, not yet stored
  bool dirty_ = false;    ///< an abandoned cycle's points are: rebuild before computing
  store::PriceStore* store_ = nullptr;  ///< what rebuild() read, for onReload()
  /// Bytes of each window's objects last time: the next buffer is reserved from it.
  std::array<std::size_t, kWindowCount> last_bytes_{};

  // A mutex, not std::atomic<shared_ptr>: see Catalog.hpp (libstdc++ spin lock).
  mutable std::mutex snapshot_mutex_;
  std::shared_ptr<const MetricsSnapshot> snapshot_;

  std::unique_ptr<common::PeriodicTask> refresh_;
};

}  // namespace skinpulse::metrics
