#include "ingest/Retention.hpp"

#include "common/Log.hpp"
#include "common/Time.hpp"

namespace skinpulse::ingest {

Retention::Retention(store::PriceStore& prices, Options options)
    : prices_(prices),
      options_(options),
      task_("retention pass", options.first_run, options.every, [this] { runPass(); }) {}

std::size_t Retention::prune(std::int64_t now) {
  const std::int64_t before = now - std::int64_t{options_.retention_days} * 86400;
  std::size_t total = 0;
  while (true) {
    const std::size_t deleted =
        prices_.deleteOlderThan(before, now - options_.reference_window_seconds, options_.batch);
    total += deleted;
    if (deleted < options_.batch) break;
    if (!task_.pause(options_.pause)) break;
  }
  return total;
}

void Retention::runPass() {
  const std::size_t deleted = prune(time::nowSeconds());
  if (deleted > 0) {
    log::main().info("retention: deleted {} point(s) older than {} days", deleted,
                     options_.retention_days);
  }
}

}  // namespace skinpulse::ingest
