#include "ingest/Retention.hpp"

#include "common/Log.hpp"
#include "common/Time.hpp"

namespace skinpulse {

void Retention::start() {
  if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
}

void Retention::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool Retention::waitFor(std::chrono::milliseconds duration) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, duration, [this] { return stopping_; });
}

std::size_t Retention::prune(std::int64_t now) {
  const std::int64_t before = now - std::int64_t{options_.retention_days} * 86400;
  std::size_t total = 0;
  while (true) {
    const std::size_t deleted = prices_.deleteOlderThan(before, options_.batch);
    total += deleted;
    if (deleted < options_.batch) break;
    if (!waitFor(options_.pause)) break;
  }
  return total;
}

void Retention::loop() {
  std::chrono::milliseconds wait = options_.first_run;
  while (waitFor(wait)) {
    try {
      const std::size_t deleted = prune(time::nowSeconds());
      if (deleted > 0) {
        log::main().info("retention: deleted {} point(s) older than {} days", deleted,
                         options_.retention_days);
      }
    } catch (const std::exception& error) {
      log::main().warn("retention pass failed (will retry): {}", error.what());
    }
    wait = options_.every;
  }
}

}  // namespace skinpulse
