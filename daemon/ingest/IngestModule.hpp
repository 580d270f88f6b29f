#pragma once

// IngestModule: ingestion (docs/api.md §4). Polls the source plugins on their schedules
// (Scheduler), stores each cycle in one transaction and updates the latest-price cache
// (IngestCycle), tells the cycle observers (metrics, then live updates), prunes old
// points (Retention), and brings in points that other processes wrote. Its readiness
// keys are the ingest role and every source's state. The modules that follow its cycles
// attach themselves through CycleHooks (ingest/CycleHooks.hpp); GET /api/v1/sources reads
// its polls through quality::PollStateSource.

#include "common/PeriodicTask.hpp"
#include "ingest/CycleHooks.hpp"
#include "ingest/IngestCycle.hpp"
#include "ingest/IngestOptions.hpp"
#include "ingest/Retention.hpp"
#include "ingest/Scheduler.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"
#include "quality/PollStateSource.hpp"

#include <memory>
#include <vector>

namespace skinpulse::ingest {

/// The market-source plugin instances ingestion polls, in configuration order: provided
/// by app/ (from the plugin set) in the registry before the modules are built.
struct MarketSources {
  std::vector<Scheduler::Source> sources;
};

class IngestModule final : public module::Module,
                           public CycleHooks,
                           public quality::PollStateSource {
 public:
  /// Polls the MarketSources of the registry; provides CycleHooks and
  /// quality::PollStateSource there. Flags outliers by the price policy, converts non-USD
  /// quotes with the rate book and keeps the history cache exact (IngestCycle).
  IngestModule(module::Services& services, IngestOptions options);
  ~IngestModule() override;

  // CycleHooks: before start().
  void addObserver(CycleObserver& observer, CycleStage stage = CycleStage::kMetrics) override {
    observers_.push_back({&observer, stage});
  }
  void addTimingsObserver(CycleTimingsObserver& observer) override {
    timings_observers_.push_back(&observer);
  }

  /// Whether this instance polls (holds the ingest lease) rather than stands by.
  bool polling() const override { return scheduler_ != nullptr && scheduler_->polling(); }

  std::string_view name() const override { return "ingest"; }
  void start() override;
  /// False when a source fetch is still running after the grace period: the plugin it
  /// runs in must not be unloaded, so the process exits instead.
  bool stop() override;
  bool describeReadiness(common::JsonWriter& json) const override;
  /// Every polled source's last success and failures since (empty before start()).
  quality::PollStates pollStates() const override;

 private:
  IngestOptions options_;
  store::Database& database_;
  catalog::Catalog& catalog_;
  prices::LatestPrices& latest_;
  std::vector<Scheduler::Source> sources_;
  std::vector<std::pair<CycleObserver*, CycleStage>> observers_;
  std::vector<CycleTimingsObserver*> timings_observers_;
  prices::HistoryCache& history_cache_;
  const currency::RateBook& rates_;
  const prices::PricePolicy& price_policy_;
  std::unique_ptr<IngestCycle> cycle_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<Retention> retention_;
  std::unique_ptr<common::PeriodicTask> backfill_watch_;
};

}  // namespace skinpulse::ingest
