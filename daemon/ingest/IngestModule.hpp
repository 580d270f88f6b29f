#pragma once

// IngestModule: ingestion (docs/api.md §4). Polls the source plugins on their schedules
// (Scheduler), stores each cycle in one transaction and updates the latest-price cache
// (IngestCycle), tells the cycle observers (metrics, then live updates), prunes old
// points (Retention), and brings in points that other processes wrote. Its readiness
// keys are the ingest role and every source's state.

#include "common/PeriodicTask.hpp"
#include "ingest/IngestCycle.hpp"
#include "ingest/IngestOptions.hpp"
#include "ingest/Retention.hpp"
#include "ingest/Scheduler.hpp"
#include "module/Module.hpp"
#include "quality/PollState.hpp"

#include <memory>
#include <vector>

namespace skinpulse::ingest {

class IngestModule final : public module::Module {
 public:
  /// Every reference, and every source instance, must outlive the module.
  /// Cycles flag outliers by `price_policy`'s rules (IngestCycle::setOutlierRules).
  IngestModule(const IngestOptions& options, Database& database, Catalog& catalog,
               LatestPrices& latest, std::vector<Scheduler::Source> sources,
               const prices::PricePolicy& price_policy);
  ~IngestModule() override;

  /// Observers run after every stored cycle in the order added, timed as `stage`
  /// (IngestCycle::addObserver). Add before start().
  void addObserver(CycleObserver& observer, CycleStage stage = CycleStage::kMetrics) {
    observers_.push_back({&observer, stage});
  }
  /// Told every cycle's stage timings (IngestCycle::addTimingsObserver). Before start().
  void addTimingsObserver(CycleTimingsObserver& observer) {
    timings_observers_.push_back(&observer);
  }
  /// Every cycle and reload drops the bodies of this cache that it made stale
  /// (IngestCycle). Set before start(); must outlive the module.
  void setHistoryCache(prices::HistoryCache& cache) { history_cache_ = &cache; }
  /// Non-USD quotes convert with these rates (IngestCycle::setRateBook). Set before
  /// start(); must outlive the module.
  void setRateBook(const currency::RateBook& rates) { rates_ = &rates; }

  /// Whether this instance polls (holds the ingest lease) rather than stands by.
  bool polling() const { return scheduler_ != nullptr && scheduler_->polling(); }

  std::string_view name() const override { return "ingest"; }
  void start() override;
  /// False when a source fetch is still running after the grace period: the plugin it
  /// runs in must not be unloaded, so the process exits instead.
  bool stop() override;
  bool describeReadiness(JsonWriter& json) const override;
  /// Every polled source's last success and failures since (empty before start()).
  quality::PollStates pollStates() const;

 private:
  IngestOptions options_;
  Database& database_;
  Catalog& catalog_;
  LatestPrices& latest_;
  std::vector<Scheduler::Source> sources_;
  std::vector<std::pair<CycleObserver*, CycleStage>> observers_;
  std::vector<CycleTimingsObserver*> timings_observers_;
  prices::HistoryCache* history_cache_ = nullptr;
  const currency::RateBook* rates_ = nullptr;
  const prices::PricePolicy& price_policy_;
  std::unique_ptr<IngestCycle> cycle_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<Retention> retention_;
  std::unique_ptr<PeriodicTask> refresh_;
  std::unique_ptr<PeriodicTask> backfill_watch_;
};

}  // namespace skinpulse::ingest
