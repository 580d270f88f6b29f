#include "ingest/Retention.hpp"

#include "common/Log.hpp"
#include "common/Time.hpp"

namespace skinpulse::ingest {

Retention::Retention(store::PriceStore& prices, Options options)
    : prices_(prices),
      options_(options),
      task_("retention pass", options.first_run, options.every, [this] { runPass(); }) {}

Retention::Pass Retention::pass(std::int64_t now) {
  constexpr std::int64_t kDay = 86400;
  const std::int64_t before = now - std::int64_t{options_.retention_days} * kDay;
  const std::int64_t keep_reference_at = now - options_.reference_window_seconds;
  Pass pass;
  pass.partitions = prices_.maintainPartitions(now, before, keep_reference_at);
  while (true) {
    const std::size_t deleted = prices_.deleteOlderThan(before, keep_reference_at, options_.batch);
    pass.points += deleted;
    if (deleted < options_.batch) break;
    if (!task_.pause(options_.pause)) break;
  }
  if (options_.rollup_hourly_days > 0) {
    pass.hourly_bars = prices_.deleteRollupsBefore(
        store::RollupLevel::kHour, now - std::int64_t{options_.rollup_hourly_days} * kDay);
  }
  if (options_.rollup_daily_days > 0) {
    pass.daily_bars = prices_.deleteRollupsBefore(
        store::RollupLevel::kDay, now - std::int64_t{options_.rollup_daily_days} * kDay);
  }
  return pass;
}

void Retention::runPass() {
  const Pass done = pass(time::nowSeconds());
  const auto& partitions = done.partitions;
  if (done.points > 0 || partitions.dropped > 0) {
    log::main().info(
        "retention: deleted {} point(s) and dropped {} day partition(s) (~{} rows, {} reference "
        "point(s) kept) older than {} days",
        done.points, partitions.dropped, partitions.rows, partitions.kept, options_.retention_days);
  }
  if (partitions.created > 0) {
    log::main().info("retention: created {} day partition(s) ahead", partitions.created);
  }
  if (done.hourly_bars > 0 || done.daily_bars > 0) {
    log::main().info("retention: deleted {} hourly and {} daily rollup bar(s)", done.hourly_bars,
                     done.daily_bars);
  }
}

}  // namespace skinpulse::ingest
