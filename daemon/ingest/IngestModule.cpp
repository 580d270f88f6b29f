#include "ingest/IngestModule.hpp"

#include "common/Log.hpp"
#include "common/Time.hpp"
#include "ingest/CycleStageMetrics.hpp"
#include "prices/Freshness.hpp"

#include <algorithm>

namespace skinpulse::ingest {
namespace {

void writeSourceStatus(common::JsonWriter& json, const SourceStatus& status) {
  auto optionalTime = [&](const char* key, const std::optional<std::int64_t>& value) {
    json.key(key);
    if (value) {
      json.value(time::formatIso8601(*value));
    } else {
      json.null();
    }
  };
  json.beginObject()
      .key("name")
      .value(status.name)
      .key("plugin")
      .value(status.plugin)
      .key("interval_seconds")
      .value(status.interval_seconds);
  optionalTime("last_poll", status.last_poll);
  optionalTime("last_success", status.last_success);
  // Fresh (docs/api.md §12): the last success is younger than 3 intervals.
  const prices::Freshness freshness({prices::SourceProfile{
      status.name, status.plugin, sdk::PriceKind::kAsk, true, status.interval_seconds, 0.0}});
  json.key("fresh").value(status.last_success.has_value() &&
                          freshness.fresh(status.name, *status.last_success, time::nowSeconds()));
  json.key("last_error")
      .value(status.last_error)
      .key("consecutive_failures")
      .value(status.consecutive_failures)
      .key("next_poll")
      .value(time::formatIso8601(status.next_poll))
      .key("points_received")
      .value(static_cast<std::int64_t>(status.points_received))
      .key("points_accepted")
      .value(static_cast<std::int64_t>(status.points_accepted))
      .key("points_rejected")
      .beginObject();
  for (const auto& [reason, count] : status.rejected) {
    json.key(reason).value(static_cast<std::int64_t>(count));
  }
  json.endObject();
  writePollCounts(json, status.rows);  // rows read and skipped, failed parts (§19)
  json.endObject();
}

}  // namespace

IngestModule::IngestModule(module::Services& services, IngestOptions options)
    : options_(std::move(options)),
      database_(services.database),
      catalog_(services.catalog),
      latest_(services.latest),
      sources_(services.registry.require<MarketSources>().sources),
      history_cache_(services.history_cache),
      rates_(services.rates),
      price_policy_(services.price_policy) {
  services.registry.provide<CycleHooks>(*this);
  services.registry.provide<quality::PollStateSource>(*this);
  // Every stage's time into skinpulse_cycle_stage_duration_seconds (docs/operations.md).
  addTimingsObserver(cycleStageMetrics());
}

IngestModule::~IngestModule() = default;

void IngestModule::start() {
  cycle_ = std::make_unique<IngestCycle>(database_, catalog_, latest_, options_.catalog_auto_add,
                                         options_.catalog_auto_add_min_sources);
  // Stage order first (CycleHooks::addObserver), then the order the modules attached.
  std::stable_sort(observers_.begin(), observers_.end(),
                   [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [observer, stage] : observers_) cycle_->addObserver(*observer, stage);
  for (auto* observer : timings_observers_) cycle_->addTimingsObserver(*observer);
  cycle_->setHistoryCache(history_cache_);  // dropped per item by each cycle, before latest
  cycle_->setRateBook(rates_);              // non-USD quotes converted at ingest (§12)
  cycle_->setOutlierRules(price_policy_);
  scheduler_ = std::make_unique<Scheduler>(
      sources_, [this](const std::vector<SourceBatch>& batches) { return cycle_->run(batches); },
      [this] { return database_.ingestLease().holds(); });
  scheduler_->start();
  Retention::Options retention;
  retention.retention_days = options_.retention_days;
  retention.rollup_hourly_days = options_.rollup_hourly_days;
  retention.rollup_daily_days = options_.rollup_daily_days;
  retention_ = std::make_unique<Retention>(database_.prices(), retention);
  retention_->start();
  // skinpulsectl backfill, and on a standby instance the polling one, write to the same
  // database while we run. The look is one keyed read of the revision (and on a standby
  // one of the cycle log), so it runs often: a backfill reloads the caches once however
  // many points it wrote, and a standby follows the polling instance's cycles so its
  // prices and metrics trail by a fraction of a second. Every store keeps the cycle log:
  // no scan for the newest point is needed.
  backfill_watch_ = std::make_unique<common::PeriodicTask>(
      "backfill watch", options_.backfill_watch_period, options_.backfill_watch_period,
      [this] { cycle_->reloadIfChangedElsewhere(!scheduler_->polling()); });
  backfill_watch_->start();
}

bool IngestModule::stop() {
  if (backfill_watch_) backfill_watch_->stop();
  if (retention_) retention_->stop();
  if (!scheduler_) return true;
  const bool clean = scheduler_->stop(options_.stop_grace);
  if (!clean) log::main().warn("a source fetch is still running; exiting without waiting");
  return clean;
}

quality::PollStates IngestModule::pollStates() const {
  quality::PollStates polls;
  if (!scheduler_) return polls;
  for (const auto& status : scheduler_->status()) {
    polls[status.name] = quality::PollState{status.last_success,
                                            static_cast<std::int64_t>(status.consecutive_failures)};
  }
  return polls;
}

bool IngestModule::describeReadiness(common::JsonWriter& json) const {
  // "polling": this instance holds the ingest lease; "standby": another one does
  // (docs/api.md §8).
  json.key("ingest").value(!scheduler_ || scheduler_->polling() ? "polling" : "standby");
  json.key("sources").beginArray();
  if (scheduler_) {
    for (const auto& status : scheduler_->status()) writeSourceStatus(json, status);
  }
  json.endArray();
  return true;
}

}  // namespace skinpulse::ingest
