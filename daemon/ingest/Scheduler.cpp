#include "ingest/Scheduler.hpp"

#include "common/HttpWaitClock.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"
#include "ingest/Backoff.hpp"
#include "plugin/SourceFetch.hpp"
#include "telemetry/DaemonMetrics.hpp"

#include <algorithm>
#include <chrono>
#include <type_traits>

namespace skinpulse::ingest {
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
      return std::string(kMalformedResponse);  // the same code as a poll with no usable row
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
  metrics.source_rows_read.labels({source.name});
  metrics.source_consecutive_failures.labels({source.name}).set(0);
}

// "unknown_item×3, no_rate×1"
std::string rejectionSummary(const RejectionCounts& rejected) {
  sdk::SkipCounts counts;
  for (const auto& [reason, count] : rejected) {
    counts.emplace_back(reason, static_cast<std::int64_t>(count));
  }
  return skipSummary(counts);
}

// The report's quotes as SourceBatch holds them: moved as they are once it holds
// VariantQuote, sliced to MarketQuote while it holds that (variants then priced as their
// name; docs/adr/0022-sdk-abi-1-3.md).
template <typename Quote>
std::vector<Quote> batchQuotes(std::vector<sdk::VariantQuote>&& quotes) {
  if constexpr (std::is_same_v<Quote, sdk::VariantQuote>) {
    return std::move(quotes);
  } else {
    std::vector<Quote> sliced;
    sliced.reserve(quotes.size());
    for (auto& quote : quotes) sliced.push_back(static_cast<Quote&&>(std::move(quote)));
    return sliced;
  }
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
  sdk::PollReport result;
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
  for (const auto index : due) launchFetch(entries_[index], pollTime);
  std::vector<SourceBatch> batches;
  std::vector<std::size_t> collected;
  const auto started = std::chrono::steady_clock::now();
  for (const auto index : due) {
    auto batch = collectFetch(entries_[index], started, pollTime);
    if (!batch) continue;
    batches.push_back(std::move(*batch));
    collected.push_back(index);
  }
  if (!batches.empty()) storeCycle(batches, collected, pollTime, started);
}

void Scheduler::launchFetch(Entry& entry, std::int64_t poll_time) {
  auto fetch = std::make_shared<Fetch>();
  fetch->poll_time = poll_time;
  sdk::MarketSource* instance = entry.source.instance;
  const plugin::SourceEntries calls{entry.source.fetch_quotes, entry.source.poll};
  {
    std::lock_guard lock(mutex_);
    entry.in_flight = fetch;
    entry.status.last_poll = poll_time;
  }
  // Detached: a fetch that overruns must not hold up the cycle; the slot outlives it.
  std::thread([fetch, instance, calls] {
    sdk::PollReport result;
    const auto called = std::chrono::steady_clock::now();
    http_wait::take();  // a fresh thread: zero, but say so
    try {
      result = plugin::pollSource(*instance, calls);
    } catch (const std::exception& error) {
      result = sdk::PollReport{};
      result.status = sdk::Status(sdk::Status::Code::kInternal, error.what());
    } catch (...) {
      result = sdk::PollReport{};
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

std::optional<SourceBatch> Scheduler::collectFetch(Entry& entry,
                                                   std::chrono::steady_clock::time_point started,
                                                   std::int64_t poll_time) {
  std::shared_ptr<Fetch> fetch;
  {
    std::lock_guard lock(mutex_);
    fetch = entry.in_flight;
  }
  const auto deadline = started + std::chrono::seconds(entry.source.timeout_seconds);
  bool finished = false;
  sdk::PollReport result;
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
    recordFailure(entry, poll_time,
                  "timed out after " + std::to_string(entry.source.timeout_seconds) + " s",
                  std::nullopt);
    return std::nullopt;  // in_flight stays set until the thread returns
  }
  entry.in_flight.reset();
  recordReport(entry, result, poll_time);
  if (!result.status.isOk()) {
    const bool limited = result.status.code() == sdk::Status::Code::kRateLimited;
    countPoll(entry.source.name, limited ? "rate_limited" : "failed");
    recordFailure(entry, poll_time, codeName(result.status.code()) + ": " + result.status.message(),
                  limited ? result.retry_after_seconds : std::nullopt);
    return std::nullopt;
  }
  if (auto unusable = unusableReportError(result)) {
    countPoll(entry.source.name, "failed");
    recordFailure(entry, poll_time, *unusable, std::nullopt);
    return std::nullopt;
  }
  SourceBatch batch{entry.source.name, poll_time, {}};
  batch.quotes = batchQuotes<decltype(batch.quotes)::value_type>(std::move(result.quotes));
  batch.kind = entry.source.kind;
  batch.fetch_time = http_wait;
  batch.parse_time = rest;
  return batch;
}

void Scheduler::recordReport(Entry& entry, const sdk::PollReport& report, std::int64_t poll_time) {
  auto& metrics = telemetry::metrics();
  const std::string& name = entry.source.name;
  auto& rows = entry.status.rows;
  const std::int64_t read = std::max<std::int64_t>(0, report.rows_read);
  rows.rows_read += static_cast<std::uint64_t>(read);
  rows.last_rows_read = read;
  rows.last_skipped.clear();
  metrics.source_rows_read.labels({name}).inc(static_cast<double>(read));
  for (const auto& [reason, count] : report.skipped) {
    if (count <= 0) continue;
    const std::string label = entry.skip_reasons.admit(reason);
    rows.skipped[label] += static_cast<std::uint64_t>(count);
    rows.last_skipped[label] += static_cast<std::uint64_t>(count);
    metrics.source_rows_skipped.labels({name, label}).inc(static_cast<double>(count));
  }
  if (auto warning = mostlySkippedWarning(report)) {
    log::main().warn("source '{}': {}", name, *warning);
  }
  for (const auto& part : report.failed_parts) {
    ++rows.part_failures;
    rows.last_part_failure =
        part.part + ": " + codeName(part.status.code()) + ": " + part.status.message();
    rows.last_part_failure_at = poll_time;
    metrics.source_part_failures.labels({name, entry.failed_parts.admit(part.part)}).inc();
    log::main().warn("source '{}': part {} failed ({}); the other parts are kept", name, part.part,
                     rows.last_part_failure);
  }
}

void Scheduler::storeCycle(const std::vector<SourceBatch>& batches,
                           const std::vector<std::size_t>& stored, std::int64_t poll_time,
                           std::chrono::steady_clock::time_point started) {
  try {
    const CycleOutcome outcome = sink_(batches);
    std::lock_guard lock(mutex_);
    for (const auto index : stored) {
      auto& entry = entries_[index];
      recordSuccess(entry, poll_time, outcome.sources.at(entry.source.name));
    }
    log::main().debug("cycle stored {} new point(s)", outcome.stored);
    telemetry::observeCycle(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  } catch (const std::exception& error) {
    std::lock_guard lock(mutex_);
    for (const auto index : stored) {
      countPoll(entries_[index].source.name, "store_failed");
      recordFailure(entries_[index], poll_time, std::string("store failed: ") + error.what(),
                    std::nullopt);
    }
  }
}

void Scheduler::recordSuccess(Entry& entry, std::int64_t poll_time, const SourceOutcome& source) {
  auto& status = entry.status;
  status.points_received += source.received;
  status.points_accepted += source.accepted;
  for (const auto& [reason, count] : source.rejected) status.rejected[reason] += count;
  if (source.received > 0 && source.accepted == 0) {
    // Quotes, but not one the normaliser could use: as good as rows the plugin skipped (§19).
    auto& metrics = telemetry::metrics();
    for (const auto& [reason, count] : source.rejected) {
      metrics.source_points_rejected.labels({entry.source.name, reason}).inc(count);
    }
    countPoll(entry.source.name, "failed");
    // Refused only for want of a USD rate (rates still loading at start, a currency no rates
    // source covers): the daemon's gap, not a feed it misreads, so it is not called malformed.
    const bool onlyNoRate =
        source.rejected.size() == 1 && source.rejected.begin()->first == kRejectedNoRate;
    recordFailure(entry, poll_time,
                  std::string(onlyNoRate ? kRejectedNoRate : kMalformedResponse) +
                      ": no usable row: " + std::to_string(source.received) +
                      " quote(s), all refused: " + rejectionSummary(source.rejected),
                  std::nullopt);
    return;
  }
  status.last_success = poll_time;
  status.last_error.clear();
  status.consecutive_failures = 0;
  status.next_poll = poll_time + entry.source.interval_seconds;
  countSuccess(entry.source.name, poll_time, source);
  telemetry::metrics().source_consecutive_failures.labels({entry.source.name}).set(0);
  log::main().info("source '{}': {} observation(s), {} accepted, {} rejected", entry.source.name,
                   source.received, source.accepted, source.received - source.accepted);
}

void Scheduler::recordFailure(Entry& entry, std::int64_t now, const std::string& error,
                              std::optional<std::int64_t> retry_after) {
  auto& status = entry.status;
  ++status.consecutive_failures;
  status.last_error = error;
  const std::int64_t delay =
      backoffSeconds(entry.source.interval_seconds, status.consecutive_failures, retry_after);
  status.next_poll = now + delay;
  telemetry::metrics()
      .source_consecutive_failures.labels({entry.source.name})
      .set(status.consecutive_failures);
  log::main().warn("source '{}' skipped this cycle: {} (failure {}, next try in {} s)",
                   entry.source.name, error, status.consecutive_failures, delay);
}

}  // namespace skinpulse::ingest
