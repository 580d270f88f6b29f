#include "ingest/IngestCycle.hpp"

#include "skinpulse/sdk/variants.hpp"

#include "catalog/CatalogImages.hpp"
#include "catalog/ItemName.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"
#include "quality/Outliers.hpp"

#include <algorithm>
#include <iterator>
#include <unordered_map>

namespace skinpulse::ingest {
namespace {

using Clock = std::chrono::steady_clock;

NormalisedBatch normaliseBatch(const SourceBatch& batch, const catalog::CatalogSnapshot& catalog,
                               const currency::RateBook::Rates* rates) {
  NormaliseInput input{batch.source, batch.poll_time, batch.kind};
  input.rates = rates;
  return normalise(input, batch.observations, batch.quotes, catalog);
}

// Say why the quotes of a non-USD source vanish, once per cycle and source: no rates
// instance has reported their currency (docs/api.md §14).
void logNoRate(const SourceBatch& batch, const RejectionCounts& rejected) {
  const auto it = rejected.find(std::string(kRejectedNoRate));
  if (it == rejected.end()) return;
  std::string currencies;
  for (const auto& quote : batch.quotes) {
    const std::string_view code = quote.currency;
    if (code.empty() || code == "USD" || currencies.find(code) != std::string::npos) continue;
    if (!currencies.empty()) currencies += ", ";
    currencies += code;
    if (currencies.size() > 64) break;
  }
  log::main().warn(
      "source '{}': {} quote(s) rejected (no_rate): no exchange rate to USD for {} (configure "
      "a [rates.NAME] instance that reports it, e.g. plugin ecb; GET /api/v1/currencies)",
      batch.source, it->second, currencies.empty() ? std::string("their currency") : currencies);
}

}  // namespace

IngestCycle::IngestCycle(store::Database& database, catalog::Catalog& catalog,
                         prices::LatestPrices& latest, bool auto_add, int auto_add_min_sources)
    : database_(database),
      catalog_(catalog),
      latest_(latest),
      auto_add_(auto_add),
      sightings_(static_cast<std::size_t>(std::max(auto_add_min_sources, 1))),
      backfill_revision_(database.prices().backfillRevision()),
      follower_(database.prices()) {}

bool IngestCycle::reloadIfChangedElsewhere(bool standby) {
  std::lock_guard lock(mutex_);
  const std::int64_t revision = database_.prices().backfillRevision();
  const bool backfilled = revision != backfill_revision_;
  const auto started = std::chrono::steady_clock::now();
  if (!backfilled) {
    if (!standby) return false;
    auto step = follower_.next(started);
    switch (step.result) {
      case CycleFollower::Result::kUpToDate:
        return false;
      case CycleFollower::Result::kFollowed:
        applyFollowed(step.points);
        return true;
      case CycleFollower::Result::kGap:
        break;  // the full reload below
    }
  }
  reloadAll(revision, backfilled, started);
  return true;
}

void IngestCycle::reloadAll(std::int64_t revision, bool backfilled,
                            std::chrono::steady_clock::time_point started) {
  // Before the load: a cycle logged meanwhile is followed again later, never skipped.
  follower_.caughtUp(started);
  // Points arrived that no cycle told item by item: every cached body may be stale.
  if (history_cache_ != nullptr) history_cache_->invalidateAll();
  latest_.reset(database_.prices().latestPerItemSource());
  backfill_revision_ = revision;
  for (const auto& [observer, stage] : observers_) {
    try {
      observer->onReload();
    } catch (const std::exception& error) {
      log::main().error("reload from the store failed: {}", error.what());
    }
  }
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - started)
                      .count();
  if (backfilled) {
    log::main().info("backfilled prices found: caches reloaded in {} ms", ms);
  } else {
    log::main().debug("prices stored by the polling instance: caches reloaded in {} ms", ms);
  }
}

namespace {

// cyclesAfter() hands over every stored point in the followed cycles' time range, which can
// hold points this instance already applied (an earlier cycle's, a paced source's). Each
// series is applied once: only the points newer than its newest known point go on, so the
// metrics never count a point twice.
std::vector<store::PricePoint> unseenPoints(const prices::LatestPrices& latest,
                                            const std::vector<store::PricePoint>& points) {
  std::unordered_map<std::int64_t, std::vector<prices::SourceLatest>> known;
  std::vector<store::PricePoint> unseen;
  unseen.reserve(points.size());
  for (const auto& point : points) {
    auto it = known.find(point.item_id);
    if (it == known.end()) it = known.emplace(point.item_id, latest.of(point.item_id)).first;
    const auto& sources = it->second;
    const auto series = std::find_if(sources.begin(), sources.end(), [&](const auto& s) {
      return s.newest.source == point.source;
    });
    if (series == sources.end() || series->newest.time < point.time) unseen.push_back(point);
  }
  return unseen;
}

}  // namespace

void IngestCycle::applyFollowed(const std::vector<store::PricePoint>& followed) {
  const auto points = unseenPoints(latest_, followed);
  if (points.empty()) return;
  // The order of our own cycle: history bodies dropped before the latest prices move.
  invalidateHistory(points);
  latest_.apply(points);
  const CycleUpdate update{time::nowSeconds(), points};
  for (const auto& [observer, stage] : observers_) {
    if (!observer->runsOnFollowedCycles()) continue;
    try {
      observer->onCycle(update);
    } catch (const std::exception& error) {
      log::main().error("following a stored cycle failed: {}", error.what());
    }
  }
  log::main().debug("followed the polling instance: {} point(s)", points.size());
}

std::size_t IngestCycle::addUnknownNames(const std::vector<SourceBatch>& batches,
                                         const std::vector<NormalisedBatch>& normalised) {
  const std::int64_t now = time::nowSeconds();
  std::vector<std::string> ready;
  for (std::size_t i = 0; i < batches.size(); ++i) {
    if (normalised[i].unknown_names.empty()) continue;
    auto names = normalised[i].unknown_names;
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    auto added = sightings_.record(batches[i].source, names, now);
    ready.insert(ready.end(), std::make_move_iterator(added.begin()),
                 std::make_move_iterator(added.end()));
  }
  if (ready.empty()) return 0;
  std::sort(ready.begin(), ready.end());
  ready.erase(std::unique(ready.begin(), ready.end()), ready.end());
  std::vector<store::CatalogEntry> entries;
  for (const auto& name : ready) {
    const auto parsed = catalog::parseItemName(name);
    if (!parsed) continue;  // the normaliser already refused junk; never add it
    store::CatalogEntry entry;
    entry.market_hash_name = name;
    entry.weapon_type = parsed->weapon_type;
    entry.skin_name = parsed->skin_name;
    entry.stattrak = parsed->stattrak;
    entries.push_back(entry);
    // A Doppler gets its variant items with it (sdk/variants.hpp).
    if (const auto* finish = sdk::variantFinish(parsed->skin_name)) {
      for (std::size_t v = 0; v < finish->count; ++v) {
        store::CatalogEntry variant = entry;
        variant.variant = finish->variants[v];
        entries.push_back(std::move(variant));
      }
    }
  }
  if (entries.empty()) return 0;
  const auto result = database_.catalog().seed(entries, time::nowSeconds());
  catalog_.reset(database_.catalog().allItems());
  std::string names;
  for (std::size_t i = 0; i < ready.size() && i < 10; ++i) {
    names += (names.empty() ? "" : ", ") + ready[i];
  }
  log::main().info(
      "catalogue: {} item(s) added from source data ([catalog] auto_add, reported by {} or more "
      "sources): {}{}",
      result.inserted, sightings_.minSources(), names, ready.size() > 10 ? ", ..." : "");
  // Items another instance added first are in the reloaded catalogue too: re-normalise.
  return entries.size();
}

void IngestCycle::invalidateHistory(const std::vector<store::PricePoint>& points) {
  if (history_cache_ == nullptr || points.empty()) return;
  std::vector<std::int64_t> items;
  items.reserve(points.size());
  for (const auto& point : points) items.push_back(point.item_id);
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  history_cache_->invalidate(items);
}

void IngestCycle::fillImages(const std::vector<NormalisedBatch>& normalised) {
  std::vector<store::CatalogStore::ItemImage> images;
  for (const auto& batch : normalised) {
    images.insert(images.end(), batch.images.begin(), batch.images.end());
  }
  // The prices are stored; a picture that fails to store can wait for the next cycle.
  catalog::CatalogImages(database_.catalog(), catalog_).fill(images, "source data");
}

void IngestCycle::notify(const CycleUpdate& update,
                         std::vector<CyclePreparation::Outcome>& prepared, CycleTimings& timings) {
  for (std::size_t i = 0; i < observers_.size(); ++i) {
    const auto& [observer, stage] = observers_[i];
    auto& outcome = prepared[i];
    if (outcome.failed) continue;  // logged when it threw
    const auto started = Clock::now();
    try {
      if (outcome.prepared) {
        outcome.prepared->commit();
      } else {
        observer->onCycle(update);
      }
    } catch (const std::exception& error) {
      log::main().error("after-cycle step failed: {}", error.what());
    }
    timings.add(stage, Clock::now() - started);
  }
}

void IngestCycle::report(const CycleTimings& timings) {
  if (log::main().should_log(spdlog::level::debug)) {
    std::string line;
    for (std::size_t i = 0; i < kCycleStageCount; ++i) {
      if (!timings.measured[i]) continue;
      const auto micros =
          std::chrono::duration_cast<std::chrono::microseconds>(timings.durations[i]).count();
      line += fmt::format("{}{}={}.{} ms", line.empty() ? "" : " ", kCycleStageNames[i],
                          micros / 1000, micros % 1000 / 100);
    }
    log::main().debug("cycle of {} point(s): {}", timings.points, line);
  }
  for (auto* observer : timings_observers_) observer->onCycleTimings(timings);
}

CycleOutcome IngestCycle::run(const std::vector<SourceBatch>& batches) {
  std::lock_guard lock(mutex_);
  CycleTimings timings;
  // Sources are fetched concurrently: the cycle waited for the slowest of each.
  for (const auto& batch : batches) {
    timings.set(CycleStage::kFetch,
                std::max(timings.durations[std::size_t(CycleStage::kFetch)], batch.fetch_time));
    timings.set(CycleStage::kParse,
                std::max(timings.durations[std::size_t(CycleStage::kParse)], batch.parse_time));
  }
  auto stage_started = Clock::now();
  // Ends the stage running since stage_started: adds its time to `stage`.
  const auto lap = [&](CycleStage stage) {
    const auto now = Clock::now();
    timings.add(stage, now - stage_started);
    stage_started = now;
  };
  auto snapshot = catalog_.snapshot();
  // One rates snapshot for the whole cycle: every quote of it converts at the same rates.
  const auto rates = rates_ != nullptr ? rates_->snapshot() : nullptr;
  std::vector<NormalisedBatch> normalised;
  for (const auto& batch : batches) {
    normalised.push_back(normaliseBatch(batch, *snapshot, rates.get()));
  }
  if (auto_add_ && addUnknownNames(batches, normalised) > 0) {
    snapshot = catalog_.snapshot();
    for (std::size_t i = 0; i < batches.size(); ++i) {
      if (!normalised[i].unknown_names.empty()) {
        normalised[i] = normaliseBatch(batches[i], *snapshot, rates.get());
      }
    }
  }
  CycleOutcome outcome;
  std::vector<store::PricePoint> points;
  for (std::size_t i = 0; i < batches.size(); ++i) {
    auto& source = outcome.sources[batches[i].source];
    source.received = batches[i].observations.size() + batches[i].quotes.size();
    source.accepted = normalised[i].points.size();
    source.rejected = normalised[i].rejected;
    source.merged = normalised[i].merged;
    logNoRate(batches[i], normalised[i].rejected);
    points.insert(points.end(), normalised[i].points.begin(), normalised[i].points.end());
  }
  lap(CycleStage::kNormalise);
  // The next latest prices are prepared first: the outlier rules judge each point there,
  // on the per-item copies the cache makes anyway, and the flags go into the store with
  // the points. Readers see the new snapshot only after the commit below.
  std::vector<store::PricePoint> confirmed;
  std::shared_ptr<const prices::LatestPrices::Snapshot> next;
  std::optional<quality::OutlierJudge> judge;
  if (!points.empty()) {
    if (outlier_policy_ != nullptr) {
      judge.emplace(outlier_policy_->freshness(), outlier_policy_->outlierFactor(), points);
    }
    next = latest_.prepare(points, judge ? judge->hook() : nullptr);
    if (judge) confirmed = judge->confirmed();
    for (const auto& point : points) {
      if (point.outlier) ++outcome.sources[point.source].outliers;
    }
    lap(CycleStage::kLatestPrices);
  }
  // What the observers see: confirmed points count from now on and come first, as they
  // are older than the points that confirmed them (the latest prices have them).
  std::vector<store::PricePoint> observed;
  observed.reserve(confirmed.size() + points.size());
  observed.insert(observed.end(), confirmed.begin(), confirmed.end());
  observed.insert(observed.end(), points.begin(), points.end());
  const CycleUpdate update{time::nowSeconds(), observed};
  // The observers that can (the metrics engine) work while the points are stored; what
  // they prepare is published only after the commit, and dropped if the store throws.
  std::vector<CycleObserver*> observers;
  for (const auto& entry : observers_) observers.push_back(entry.observer);
  CyclePreparation preparation(std::move(observers), update,
                               next ? next->source_names : latest_.sourceNames());
  // Before the insert: a standby reloading after it sees both changes.
  if (!confirmed.empty()) database_.prices().clearOutliers(confirmed);
  outcome.stored = database_.prices().insert(points);
  // Our cycle is applied below: were we to stand by later, following resumes after it.
  try {
    follower_.caughtUp();
  } catch (const std::exception& error) {
    log::main().warn("cycle log position not read: {}", error.what());
  }
  invalidateHistory(observed);
  fillImages(normalised);
  lap(CycleStage::kStore);
  if (next) latest_.commit(std::move(next));
  lap(CycleStage::kLatestPrices);
  // What the cycle waited for the preparation after the store: the metrics stage's share
  // of the latency (the rest ran alongside the store).
  auto prepared = preparation.finish();
  lap(CycleStage::kMetrics);
  notify(update, prepared, timings);
  if (log::main().should_log(spdlog::level::debug)) {
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(preparation.took()).count();
    log::main().debug("cycle observers prepared alongside the store in {}.{} ms", micros / 1000,
                      micros % 1000 / 100);
  }
  timings.points = observed.size();
  report(timings);
  return outcome;
}

}  // namespace skinpulse::ingest
