#include "ingest/Scheduler.hpp"

#include "common/HttpWaitClock.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"
#include "ingest/Backoff.hpp"
#include "plugin/SourceFetch.hpp"
#include "telemetry/DaemonMetrics.hpp"

#include <algorithm>
#include <chrono>

namespace skinpulse {
namespace {

std::string codeName(sdk::Status::Code code) {
  switch (code) {
    case sdk::Status::Code::kOk:
      return "ok";
    case sdk::Status::Code::kInvalidConfig:
      return "invalid configuration";
    case sdk::Status::Code::kUnavailable:
      return "upstream unavailable";
    case sdk::Status::Code::kRateLimited:
      return "rate limited";
    case sdk::Status::Code::kTooLarge:
      return "response over the byte cap";
    case sdk::Status::Code::kMalformed:
      return "malformed response";
    case sdk::Status::Code::kRejected:
      return "rejected";
    case sdk::Status::Code::kInternal:
      return "plugin error";
  }
  return "error";
}

// skinpulse_source_* (docs/operations.md, "Prometheus metrics").
void countPoll(const std::string& source, std::string_view result) {
  telemetry::metrics().source_polls.labels({source, result}).inc();
}

// Every result's series exists from the start at 0, so increase() over it is defined.
void precreateSeries(const Scheduler::Source& source) {
  auto& metrics = telemetry::metrics();
  for (const std::string_view result :
       {"ok", "failed", "timeout", "rate_limited", "store_failed"}) {
    metrics.source_polls.labels({source.name, result});
  }
  metrics.source_points_accepted.labels({source.name});
  metrics.source_outliers.labels({source.name});
  metrics.source_interval.labels({source.name}).set(source.interval_seconds);
}

void countSuccess(const std::string& source, std::int64_t poll_time, const SourceOutcome& outcome) {
  auto& metrics = telemetry::metrics();
  countPoll(source, "ok");
  metrics.source_last_success.labels({source}).set(static_cast<double>(poll_time));
  metrics.source_points_accepted.labels({source}).inc(outcome.accepted);
  metrics.source_outliers.labels({source}).inc(outcome.outliers);
  for (const auto& [reason, count] : outcome.rejected) {
    metrics.source_points_rejected.labels({source, reason}).inc(count);
  }
}

}  // namespace

struct Scheduler::Fetch {
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  sdk::QuoteBatch result;
  std::int64_t poll_time = 0;
  std::chrono::nanoseconds http_wait{0};  ///< in the host's HTTP client (fetch stage)
  std::chrono::nanoseconds rest{0};       ///< the rest of fetchQuotes (parse stage)
};

Scheduler::Scheduler(std::vector<Source> sources, CycleSink sink, LeaseCheck may_poll)
    : sink_(std::move(sink)), may_poll_(std::move(may_poll)) {
  const std::int64_t now = time::nowSeconds();
  for (auto& source : sources) {
    // A standby instance must notice a free lease well within two intervals (§8).
    standby_recheck_ =
        std::min(standby_recheck_, std::chrono::seconds(std::max(1, source.interval_seconds / 2)));
    Entry entry;
    entry.status.name = source.name;
    entry.status.plugin = source.plugin;
    entry.status.interval_seconds = source.interval_seconds;
    entry.status.timeout_seconds = source.timeout_seconds;
    entry.status.next_poll = now;  // first poll right away
    precreateSeries(source);
    entry.source = std::move(source);
    entries_.push_back(std::move(entry));
  }
}

Scheduler::~Scheduler() { stop(std::chrono::milliseconds(0)); }

void Scheduler::start() {
  if (entries_.empty() || thread_.joinable()) return;
  thread_ = std::thread([this] { loop(); });
}

bool Scheduler::stop(std::chrono::milliseconds grace) {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  const auto deadline = std::chrono::steady_clock::now() + grace;
  bool allDone = true;
  for (auto& entry : entries_) {
    if (!entry.in_flight) continue;
    std::unique_lock lock(entry.in_flight->mutex);
    if (!entry.in_flight->done_cv.wait_until(lock, deadline,
                                             [&] { return entry.in_flight->done; })) {
      allDone = false;
    }
  }
  return allDone;
}

std::vector<SourceStatus> Scheduler::status() const {
  std::lock_guard lock(mutex_);
  std::vector<SourceStatus> result;
  for (const auto& entry : entries_) result.push_back(entry.status);
  return result;
}

void Scheduler::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const std::int64_t now = time::nowSeconds();
    std::vector<std::size_t> due;
    std::int64_t next = now + 3600;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      auto& entry = entries_[i];
      if (entry.in_flight) {
        std::lock_guard fetchLock(entry.in_flight->mutex);
        if (!entry.in_flight->done) continue;  // still overrunning: never call it twice
        entry.in_flight.reset();
      }
      if (entry.status.next_poll <= now) {
        due.push_back(i);
      } else {
        next = std::min(next, entry.status.next_poll);
      }
    }
    if (!due.empty()) {
      lock.unlock();
      const bool mayPoll = !may_poll_ || may_poll_();
      polling_ = mayPoll;
      if (mayPoll) runCycle(std::move(due));
      lock.lock();
      if (mayPoll) continue;
      wake_.wait_for(lock, standby_recheck_, [this] { return stopping_; });
      continue;
    }
    wake_.wait_for(lock, std::chrono::seconds(std::max<std::int64_t>(1, next - now)),
                   [this] { return stopping_; });
  }
}

void Scheduler::runCycle(std::vector<std::size_t> due) {
  const std::int64_t pollTime = time::nowSeconds();
  for (const auto index : due) {
    auto& entry = entries_[index];
    auto fetch = std::make_shared<Fetch>();
    fetch->poll_time = pollTime;
    sdk::MarketSource* instance = entry.source.instance;
    const skinpulse_fetch_quotes_fn fetch_quotes = entry.source.fetch_quotes;
    {
      std::lock_guard lock(mutex_);
      entry.in_flight = fetch;
      entry.status.last_poll = pollTime;
    }
    // Detached: a fetch that overruns must not hold up the cycle; the slot outlives it.
    std::thread([fetch, instance, fetch_quotes] {
      sdk::QuoteBatch result;
      const auto called = std::chrono::steady_clock::now();
      http_wait::take();  // a fresh thread: zero, but say so
      try {
        result = fetchQuotes(*instance, fetch_quotes);
      } catch (const std::exception& error) {
        result.status = sdk::Status(sdk::Status::Code::kInternal, error.what());
      } catch (...) {
        result.status = sdk::Status(sdk::Status::Code::kInternal, "unknown exception");
      }
      const auto total = std::chrono::steady_clock::now() - called;
      std::lock_guard lock(fetch->mutex);
      fetch->http_wait = http_wait::take();
      fetch->rest = std::max(std::chrono::nanoseconds{0}, total - fetch->http_wait);
      fetch->result = std::move(result);
      fetch->done = true;
      fetch->done_cv.notify_all();
    }).detach();
  }

  std::vector<SourceBatch> batches;
  std::vector<std::size_t> succeeded;
  const auto started = std::chrono::steady_clock::now();
  for (const auto index : due) {
    auto& entry = entries_[index];
    std::shared_ptr<Fetch> fetch;
    {
      std::lock_guard lock(mutex_);
      fetch = entry.in_flight;
    }
    const auto deadline = started + std::chrono::seconds(entry.source.timeout_seconds);
    bool finished = false;
    sdk::QuoteBatch result;
    std::chrono::nanoseconds http_wait{0}, rest{0};
    {
      std::unique_lock fetchLock(fetch->mutex);
      finished = fetch->done_cv.wait_until(fetchLock, deadline, [&] { return fetch->done; });
      if (finished) {
        result = std::move(fetch->result);
        http_wait = fetch->http_wait;
        rest = fetch->rest;
      }
    }
    std::lock_guard lock(mutex_);
    if (!finished) {
      countPoll(entry.source.name, "timeout");
      recordFailure(entry, pollTime,
                    "timed out after " + std::to_string(entry.source.timeout_seconds) + " s",
                    std::nullopt);
      continue;  // in_flight stays set until the thread returns
    }
    entry.in_flight.reset();
    if (!result.status.isOk()) {
      countPoll(entry.source.name, result.status.code() == sdk::Status::Code::kRateLimited
                                       ? "rate_limited"
                                       : "failed");
      recordFailure(
          entry, pollTime, codeName(result.status.code()) + ": " + result.status.message(),
          result.status.code() == sdk::Status::Code::kRateLimited ? result.retry_after_seconds
                                                                  : std::nullopt);
      continue;
    }
    SourceBatch batch{entry.source.name, pollTime, {}};
    // ABI 1.2 quotes name no variant (SourceBatch holds ABI 1.3 VariantQuotes).
    batch.quotes.reserve(result.quotes.size());
    for (auto& quote : result.quotes)
      batch.quotes.push_back(sdk::VariantQuote{std::move(quote), {}});
    batch.kind = entry.source.kind;
    batch.fetch_time = http_wait;
    batch.parse_time = rest;
    batches.push_back(std::move(batch));
    succeeded.push_back(index);
  }
  if (batches.empty()) return;

  try {
    const CycleOutcome outcome = sink_(batches);
    std::lock_guard lock(mutex_);
    for (const auto index : succeeded) {
      auto& entry = entries_[index];
      const auto& source = outcome.sources.at(entry.source.name);
      entry.status.last_success = pollTime;
      entry.status.last_error.clear();
      entry.status.consecutive_failures = 0;
      entry.status.next_poll = pollTime + entry.source.interval_seconds;
      entry.status.points_received += source.received;
      entry.status.points_accepted += source.accepted;
      for (const auto& [reason, count] : source.rejected) entry.status.rejected[reason] += count;
      countSuccess(entry.source.name, pollTime, source);
      log::main().info("source '{}': {} observation(s), {} accepted, {} rejected",
                       entry.source.name, source.received, source.accepted,
                       source.received - source.accepted);
    }
    log::main().debug("cycle stored {} new point(s)", outcome.stored);
    telemetry::observeCycle(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  } catch (const std::exception& error) {
    std::lock_guard lock(mutex_);
    for (const auto index : succeeded) {
      countPoll(entries_[index].source.name, "store_failed");
      recordFailure(entries_[index], pollTime, std::string("store failed: ") + error.what(),
                    std::nullopt);
    }
  }
}

void Scheduler::recordFailure(Entry& entry, std::int64_t now, const std::string& error,
                              std::optional<std::int64_t> retry_after) {
  auto& status = entry.status;
  ++status.consecutive_failures;
  status.last_error = error;
  const std::int64_t delay =
      backoffSeconds(entry.source.interval_seconds, status.consecutive_failures, retry_after);
  status.next_poll = now + delay;
  log::main().warn("source '{}' skipped this cycle: {} (failure {}, next try in {} s)",
                   entry.source.name, error, status.consecutive_failures, delay);
}

}  // namespace skinpulse
