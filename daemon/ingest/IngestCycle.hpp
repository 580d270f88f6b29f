#pragma once

// IngestCycle: what happens to the results of one polling cycle: normalise every
// source's observations, store all of them in ONE transaction (identical observations
// are kept once by the store's key), drop the history cache's bodies of the items stored
// for, then fold the points into the latest-price cache. In that order, so a history body
// is never older than the latest prices item detail shows (docs/architecture.md,
// "History cache").

#include "catalog/Catalog.hpp"
#include "catalog/NameSightings.hpp"
#include "ingest/CycleFollower.hpp"
#include "ingest/CycleObserver.hpp"
#include "ingest/CyclePreparation.hpp"
#include "ingest/CycleTimings.hpp"
#include "ingest/Normaliser.hpp"
#include "prices/HistoryCache.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "store/Database.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::ingest {

struct SourceBatch {
  std::string source;  ///< instance name, stored as the points' source
  std::int64_t poll_time = 0;
  /// ABI 1.0-shaped observations (tools and benchmarks build these); normalised as quotes
  /// without kind, listings, currency or image.
  std::vector<sdk::Observation> observations;
  /// What the scheduler fetched (ABI 1.3: a quote may name its variant, docs/api.md §18;
  /// older sources adapted, plugin/SourceFetch.hpp).
  std::vector<sdk::VariantQuote> quotes = {};
  /// The instance's kind: the kind of every observation and of quotes without their own.
  sdk::PriceKind kind = sdk::PriceKind::kAsk;
  /// How long the fetch waited for the upstream, and the rest of it (the plugin's parse);
  /// zero when not measured (tools, benchmarks).
  std::chrono::nanoseconds fetch_time{0};
  std::chrono::nanoseconds parse_time{0};
};

struct SourceOutcome {
  std::size_t received = 0;  ///< observations plus quotes
  std::size_t accepted = 0;  ///< normalised points handed to the store
  std::size_t outliers = 0;  ///< of those, flagged (docs/api.md §12)
  /// Rows folded into another row of the same item, source and time (docs/api.md §18: a
  /// name's rows are merged, never dropped). Not rejections.
  std::size_t merged = 0;
  RejectionCounts rejected;
};

struct CycleOutcome {
  std::map<std::string, SourceOutcome> sources;
  std::size_t stored = 0;  ///< new points (accepted minus those already stored)
};

class IngestCycle {
 public:
  /// Remembers the store's backfill revision and cycle log position: the caller has just loaded
  /// the caches.
  /// `auto_add`: names missing from the catalogue that `auto_add_min_sources` distinct
  /// source instances report within 24 h join it (docs/api.md §18).
  IngestCycle(store::Database& database, catalog::Catalog& catalog, prices::LatestPrices& latest,
              bool auto_add, int auto_add_min_sources = 2);

  /// Observers run after every stored cycle, in the order added; their time counts
  /// towards `stage` (kMetrics or kPublish) of the cycle's timings. Add before polling
  /// starts.
  void addObserver(CycleObserver& observer, CycleStage stage = CycleStage::kMetrics) {
    observers_.push_back(Observer{&observer, stage});
  }
  /// Told every stored cycle's stage timings (logged at debug regardless). Add before
  /// polling starts.
  void addTimingsObserver(CycleTimingsObserver& observer) {
    timings_observers_.push_back(&observer);
  }
  /// The cache of bodies rendered from stored history, kept exact by every cycle and
  /// reload; must outlive the cycle. Set before polling starts.
  void setHistoryCache(prices::HistoryCache& cache) { history_cache_ = &cache; }
  /// Non-USD quotes convert with the newest rates of `rates` (docs/api.md §12); without,
  /// they are rejected as `no_rate`. Set before polling starts; must outlive the cycle.
  void setRateBook(const currency::RateBook& rates) { rates_ = &rates; }
  /// Flag outliers (docs/api.md §12) before storing, with the freshness and factor of
  /// `policy`; without, no point is flagged. Set before polling starts; the policy must
  /// outlive the cycle.
  void setOutlierRules(const prices::PricePolicy& policy) { outlier_policy_ = &policy; }

  /// Throws when the store fails; then nothing of the cycle is stored or cached and no
  /// observer runs.
  CycleOutcome run(const std::vector<SourceBatch>& batches);

  /// Brings in points that no cycle of ours stored. A backfill
  /// (PriceStore::backfillRevision) reloads the latest-price cache from the store and
  /// tells the observers (onReload). On a `standby` instance, the polling instance's
  /// cycles are followed through the cycle log (CycleFollower): their points go into the
  /// latest-price cache, drop their items' history bodies and reach the observers that
  /// run on followed cycles — incrementally; a gap in the log reloads in full. Every
  /// look is a keyed read or two (the revision, the log's newest sequence number). Never
  /// at the same time as a cycle. Returns whether the caches changed.
  bool reloadIfChangedElsewhere(bool standby);

 private:
  /// Adds the names that reached the sources threshold; returns how many items it seeded.
  std::size_t addUnknownNames(const std::vector<SourceBatch>& batches,
                              const std::vector<NormalisedBatch>& normalised);
  void invalidateHistory(const std::vector<store::PricePoint>& points);
  /// Items without an image get the first https image a source reported for them.
  void fillImages(const std::vector<NormalisedBatch>& normalised);
  /// Runs each observer after the store: commits what it prepared alongside the store,
  /// or calls onCycle().
  void notify(const CycleUpdate& update, std::vector<CyclePreparation::Outcome>& prepared,
              CycleTimings& timings);
  /// The polling instance's points, applied like our own cycle's but without timings and
  /// only for the observers that run on followed cycles.
  void applyFollowed(const std::vector<store::PricePoint>& points);
  /// Everything derived from the stored history, loaded again.
  void reloadAll(std::int64_t revision, bool backfilled,
                 std::chrono::steady_clock::time_point started);
  void report(const CycleTimings& timings);

  store::Database& database_;
  catalog::Catalog& catalog_;
  prices::LatestPrices& latest_;
  bool auto_add_;
  catalog::NameSightings sightings_;  ///< who reported which unknown name (auto_add)
  struct Observer {
    CycleObserver* observer;
    CycleStage stage;
  };
  std::vector<Observer> observers_;
  std::vector<CycleTimingsObserver*> timings_observers_;
  prices::HistoryCache* history_cache_ = nullptr;
  const currency::RateBook* rates_ = nullptr;
  const prices::PricePolicy* outlier_policy_ = nullptr;
  std::mutex mutex_;  ///< one cycle or reload at a time
  std::int64_t backfill_revision_ = 0;
  CycleFollower follower_;  ///< a standby's place in the polling instance's cycle log
};

}  // namespace skinpulse::ingest
