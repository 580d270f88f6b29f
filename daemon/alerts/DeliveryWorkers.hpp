#pragma once

// DeliveryWorkers: the threads that empty the alert outbox (store/AlertStore). Each takes
// the delivery due first of a user below their share of the workers (fairness: one
// user's slow targets cannot hold every worker), leases it for the sender's total
// deadline plus a margin (a worker or daemon that dies mid-send leaves it to be taken
// again when the lease ends: at least once, same delivery id; while the attempt lives,
// nobody else takes it), sends it with Sender, and records the outcome under its lease
// token (a late worker never overwrites a newer attempt): delivered; pending again with
// back-off (timeout, connection failure, 429, 5xx: retry_base_seconds doubling up to
// 6 h, at most 10 attempts); or failed for good (any other answer, a refused target).
// Once an hour a worker prunes finished deliveries older than the retention.

#include "alerts/Sender.hpp"
#include "store/AlertStore.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace skinpulse::alerts {

/// Sends a `{"type":"alert",...}` frame to the signed-in WebSocket connections of a user;
/// returns how many connections took it.
using WsSink = std::function<std::size_t(const std::string& user_id, const std::string& frame)>;

struct DeliveryOptions {
  int workers = 4;
  /// Attempts of one user in flight at once, over every instance; 0 = half the workers,
  /// rounded up.
  int max_workers_per_user = 0;
  std::int64_t retry_base_seconds = 60;
  /// Delivered and failed deliveries are deleted this long after their last attempt;
  /// 0 keeps them for ever.
  std::int64_t retention_days = 30;
  std::string telegram_api_url = "https://api.telegram.org";
};

/// Attempts before a delivery fails for good, and the longest back-off.
inline constexpr std::int64_t kMaxAttempts = 10;
inline constexpr std::int64_t kMaxBackoffSeconds = 6 * 3600;
/// A lease outlives the attempt's deadline by this much: the claim, the signature and
/// the write of the outcome happen outside the sender's deadline.
inline constexpr std::int64_t kLeaseMarginSeconds = 20;
/// How often finished deliveries are pruned.
inline constexpr std::int64_t kPruneIntervalSeconds = 3600;

/// How long a claimed delivery stays leased for an attempt bounded by `timeout`.
std::int64_t leaseSeconds(std::chrono::milliseconds timeout);
/// The share of `workers` one user's attempts may hold; `configured` 0 = half, rounded up.
int workersPerUser(int workers, int configured);

/// Seconds to wait after failed attempt number `attempts` (1-based).
std::int64_t backoffSeconds(std::int64_t base, std::int64_t attempts);

class DeliveryWorkers {
 public:
  /// `now` gives Unix seconds (tests move it).
  DeliveryWorkers(store::AlertStore& store, const Sender& sender, DeliveryOptions options,
                  WsSink ws, std::function<std::int64_t()> now);
  ~DeliveryWorkers();

  void start();
  void stop();
  /// New deliveries are in the outbox: idle workers look now instead of at their next poll.
  void wake();

  /// Sends the delivery due first, if any; false when none was due. What each worker
  /// thread runs in a loop (and what tests call directly).
  bool deliverOne();

  /// Deletes the finished deliveries past the retention now; how many went.
  std::size_t pruneFinished();

 private:
  void run();
  void attempt(const store::AlertDeliveryRecord& delivery);
  /// pruneFinished() when the last prune is an interval old; by one worker at a time.
  void pruneWhenDue();
  /// Writes the outcome under the attempt's lease token; logs when the lease was lost.
  void finish(const store::AlertDeliveryRecord& delivery, const std::string& status,
              std::int64_t next, std::optional<std::int64_t> code, const std::string& error);

  store::AlertStore& store_;
  const Sender& sender_;
  DeliveryOptions options_;
  WsSink ws_;
  std::function<std::int64_t()> now_;

  std::mutex mutex_;
  std::condition_variable wakeup_;
  std::uint64_t wakes_ = 0;
  std::atomic<bool> running_{false};
  std::atomic<std::int64_t> next_prune_at_{0};
  std::vector<std::thread> threads_;
};

}  // namespace skinpulse::alerts
