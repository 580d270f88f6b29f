#pragma once

// DeliveryWorkers: the threads that empty the alert outbox (store/AlertStore). Each takes
// the delivery due first, leases it (a worker or daemon that dies mid-send leaves it to
// be taken again when the lease ends: at least once, same delivery id), sends it with
// Sender, and records the outcome: delivered; pending again with back-off (timeout,
// connection failure, 429, 5xx: retry_base_seconds doubling up to 6 h, at most 10
// attempts); or failed for good (any other answer, a refused target).

#include "alerts/Sender.hpp"
#include "store/AlertStore.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace skinpulse::alerts {

/// Sends a `{"type":"alert",...}` frame to the signed-in WebSocket connections of a user;
/// returns how many connections took it.
using WsSink = std::function<std::size_t(const std::string& user_id, const std::string& frame)>;

struct DeliveryOptions {
  int workers = 2;
  std::int64_t retry_base_seconds = 60;
  std::string telegram_api_url = "https://api.telegram.org";
};

/// Attempts before a delivery fails for good, and the longest back-off.
inline constexpr std::int64_t kMaxAttempts = 10;
inline constexpr std::int64_t kMaxBackoffSeconds = 6 * 3600;
/// How long a claimed delivery stays leased: longer than any attempt (10 s) can take.
inline constexpr std::int64_t kLeaseSeconds = 60;

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

 private:
  void run();
  void attempt(const store::AlertDeliveryRecord& delivery);

  store::AlertStore& store_;
  const Sender& sender_;
  DeliveryOptions options_;
  WsSink ws_;
  std::function<std::int64_t()> now_;

  std::mutex mutex_;
  std::condition_variable wakeup_;
  std::uint64_t wakes_ = 0;
  std::atomic<bool> running_{false};
  std::vector<std::thread> threads_;
};

}  // namespace skinpulse::alerts
