#pragma once

// DrainState: whether the daemon is draining before it stops (docs/operations.md, "Run a
// fleet"). On SIGTERM the daemon first answers GET /readyz 503 with "state":"draining",
// so the load balancer's health check takes it out of rotation while it still serves
// what the balancer sends meanwhile; only then does it stop accepting. The readiness
// report reads it and records every probe: without a recent probe nobody routes by our
// readiness, so there is nobody to tell and the drain is skipped (a lone daemon keeps its
// promise to stop within 5 s of SIGTERM).

#include <atomic>
#include <chrono>

namespace skinpulse::app {

class DrainState {
 public:
  using Clock = std::chrono::steady_clock;

  void begin() { draining_.store(true); }
  bool draining() const { return draining_.load(); }

  /// A readiness probe was answered (public or admin listener).
  void probed(Clock::time_point now = Clock::now()) const {
    last_probe_.store(now.time_since_epoch().count());
  }
  /// Whether a readiness probe was answered within `window` before `now`.
  bool probedWithin(Clock::duration window, Clock::time_point now = Clock::now()) const {
    const auto last = last_probe_.load();
    return last != kNever && now - Clock::time_point(Clock::duration(last)) <= window;
  }

 private:
  static constexpr Clock::rep kNever = Clock::duration::min().count();
  std::atomic<bool> draining_{false};
  mutable std::atomic<Clock::rep> last_probe_{kNever};
};

}  // namespace skinpulse::app
