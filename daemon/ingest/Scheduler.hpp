#pragma once

// Scheduler: polls every enabled source instance at its interval, all due sources of a
// cycle concurrently, each fetch on its own thread and bounded by the instance's
// timeout_seconds. A source that fails, times out or is rate limited is skipped for the
// cycle and backs off on its own (ingest/Backoff.hpp: doubling up to five minutes; a
// 429 waits its Retry-After, at most an hour) while the others are stored; one success resets it. A
// fetch that overruns its timeout is abandoned for the cycle and the instance is not called again
// until it returns (plugins are never called concurrently).
//
// A poll that read rows and yields no usable one fails too (docs/api.md §19,
// ingest/PollHealth.hpp): the report's rows were all skipped, or the normaliser refused
// every quote. It backs off and never moves last_success. Skipped rows and failed parts
// (the good parts are stored) are counted per source and reason.
//
// Thread safety: status() may be called from any thread.

#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include "ingest/IngestCycle.hpp"
#include "ingest/PollHealth.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace skinpulse::ingest {

struct SourceStatus {
  std::string name;
  std::string plugin;
  int interval_seconds = 60;
  int timeout_seconds = 30;
  std::optional<std::int64_t> last_poll;
  std::optional<std::int64_t> last_success;
  std::string last_error;
  int consecutive_failures = 0;
  std::int64_t next_poll = 0;
  std::uint64_t points_received = 0;
  std::uint64_t points_accepted = 0;
  RejectionCounts rejected;  ///< since start, by reason
  PollCounts rows;           ///< rows read, skipped and failed parts (§19)
};

class Scheduler {
 public:
  struct Source {
    std::string name;
    std::string plugin;
    sdk::MarketSource* instance = nullptr;  ///< owned by the caller; outlives the scheduler
    int interval_seconds = 60;
    int timeout_seconds = 30;
    /// ABI 1.2 sources: the descriptor's fetch entry (plugin/SourceFetch.hpp); nullptr for
    /// older ones, whose fetch() results are adapted.
    skinpulse_fetch_quotes_fn fetch_quotes = nullptr;
    /// The instance's `kind`: the kind of its quotes that do not state their own.
    sdk::PriceKind kind = sdk::PriceKind::kAsk;
    /// ABI 1.3 sources: the descriptor's poll entry (plugin/SourceFetch.hpp); nullptr for
    /// older ones, whose answers become a PollReport without skip counts.
    skinpulse_poll_fn poll = nullptr;
  };
  /// Stores one cycle; throws on a store failure.
  using CycleSink = std::function<CycleOutcome(const std::vector<SourceBatch>&)>;

  /// Asked before every cycle whether this instance may poll (the ingest lease); when it
  /// answers no, nothing is fetched and it is asked again a few seconds later.
  using LeaseCheck = std::function<bool()>;

  Scheduler(std::vector<Source> sources, CycleSink sink, LeaseCheck may_poll = nullptr);
  ~Scheduler();

  void start();
  /// Stops polling; waits up to `grace` for fetches in flight. False when some are still
  /// running: their instances must then not be destroyed (the caller exits instead).
  bool stop(std::chrono::milliseconds grace);

  std::vector<SourceStatus> status() const;
  /// False while another instance holds the ingest lease.
  bool polling() const { return polling_.load(); }

 private:
  struct Fetch;  // one fetch's result slot, shared with its thread
  struct Entry {
    Source source;
    SourceStatus status;
    std::shared_ptr<Fetch> in_flight;  ///< set while a fetch thread runs
    BoundedLabels skip_reasons{16};    ///< metric labels of the skip reasons
    BoundedLabels failed_parts{8};     ///< metric labels of the failed parts
  };

  void loop();
  void runCycle(std::vector<std::size_t> due);
  void launchFetch(Entry& entry, std::int64_t poll_time);
  /// Waits for the entry's fetch until `started` + its timeout; the batch to store, or
  /// nullopt when the poll failed (recorded).
  std::optional<SourceBatch> collectFetch(Entry& entry,
                                          std::chrono::steady_clock::time_point started,
                                          std::int64_t poll_time);
  /// Counts what the report read and skipped and its failed parts; warns when most rows
  /// were skipped. Caller holds mutex_.
  void recordReport(Entry& entry, const sdk::PollReport& report, std::int64_t poll_time);
  void storeCycle(const std::vector<SourceBatch>& batches, const std::vector<std::size_t>& stored,
                  std::int64_t poll_time, std::chrono::steady_clock::time_point started);
  void recordSuccess(Entry& entry, std::int64_t poll_time, const SourceOutcome& outcome);
  void recordFailure(Entry& entry, std::int64_t now, const std::string& error,
                     std::optional<std::int64_t> retry_after);

  CycleSink sink_;
  LeaseCheck may_poll_;
  std::chrono::seconds standby_recheck_{5};
  std::atomic<bool> polling_{true};
  std::vector<Entry> entries_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace skinpulse::ingest
