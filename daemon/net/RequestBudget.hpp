#pragma once

// RequestBudget: how many requests this daemon may send to one upstream per minute, as a
// token bucket (capacity = the per-minute budget, refilled continuously). The game
// platform throttles by client address, so every call to it (inventory imports and the
// steam_market source) draws from one budget: a user looping imports of a private
// inventory, or a busy poller, cannot get the server's address blocked for everybody.
//
// Three priorities: a user waiting on an answer (an import) may take every token; work in
// the background (polling) leaves a reserve of a quarter of the budget for users, and
// may wait for a token up to a deadline instead of failing at once. A user whose imports
// failed recently (kUserAfterFailure) leaves the same reserve: a few accounts whose
// inventories keep failing cannot keep the budget empty for everyone else.
//
// Thread-safe.

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>

namespace skinpulse::net {

/// Thrown when a request is not sent because the budget is used up.
class RequestBudgetExhausted : public std::runtime_error {
 public:
  RequestBudgetExhausted(const std::string& message, std::int64_t retry_after_seconds)
      : std::runtime_error(message), retry_after_seconds_(retry_after_seconds) {}
  /// Seconds until a request of the same priority would be admitted (≥ 1).
  std::int64_t retryAfterSeconds() const { return retry_after_seconds_; }

 private:
  std::int64_t retry_after_seconds_;
};

class RequestBudget {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  enum class Priority {
    kUser,              ///< may take every token
    kUserAfterFailure,  ///< a user with a recent failed import: leaves the reserve
    kBackground,        ///< polling: leaves the reserve
  };

  struct Admission {
    bool granted = false;
    std::chrono::milliseconds retry_after{0};  ///< when refused: until a token is there (> 0)
  };

  /// `per_minute` ≥ 1. `clock` is steady_clock::now unless a test moves time itself.
  explicit RequestBudget(std::int64_t per_minute, Clock clock = {});

  /// Takes a token when one is available to `priority`; never waits.
  Admission tryAcquire(Priority priority);

  /// Waits until a token is available to `priority` and takes it, or returns false at
  /// `deadline` without one.
  bool acquire(Priority priority, std::chrono::steady_clock::time_point deadline);

  std::int64_t perMinute() const { return per_minute_; }

 private:
  // Milli-tokens, so that refill is exact in integers.
  void refillLocked(std::chrono::steady_clock::time_point now);
  std::int64_t floorFor(Priority priority) const;

  const std::int64_t per_minute_;
  const std::int64_t reserve_;  ///< whole tokens kept for kUser
  Clock clock_;
  std::mutex mutex_;
  std::int64_t milli_tokens_;
  std::chrono::steady_clock::time_point last_refill_;
};

}  // namespace skinpulse::net
