#pragma once

// Enforces the total deadline of an HTTP exchange. Socket timeouts bound each receive, not
// their sum: a server that sends a header byte every few seconds would keep a request
// alive for hours. The watchdog shuts the socket down when the deadline passes, which
// wakes any blocked read or write (TLS included) in the thread that owns the exchange.
//
// Thread safety: watch() and the Watch handles may be used from any thread.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace skinpulse::net {

class DeadlineWatchdog {
 public:
  using Clock = std::chrono::steady_clock;

  /// Stops watching when destroyed. Destroy it before the socket is closed or reused.
  class Watch {
   public:
    Watch() = default;
    Watch(Watch&& other) noexcept;
    Watch& operator=(Watch&& other) noexcept;
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;
    ~Watch();

    /// True once the deadline passed and the socket was shut down: whatever the exchange
    /// saw afterwards (end of stream, reset) is a timeout.
    bool expired() const;

   private:
    friend class DeadlineWatchdog;
    Watch(DeadlineWatchdog* owner, std::uint64_t id) : owner_(owner), id_(id) {}
    DeadlineWatchdog* owner_ = nullptr;
    std::uint64_t id_ = 0;
  };

  DeadlineWatchdog();
  ~DeadlineWatchdog();
  DeadlineWatchdog(const DeadlineWatchdog&) = delete;
  DeadlineWatchdog& operator=(const DeadlineWatchdog&) = delete;

  /// Shuts the connected socket `socket_fd` down (both directions) at `deadline`. The
  /// watchdog keeps its own duplicate of the descriptor, so the number it acts on can never
  /// be a newer, unrelated socket. When no duplicate can be made the Watch is inert and
  /// the exchange is bounded by its socket timeouts alone.
  Watch watch(int socket_fd, Clock::time_point deadline);

 private:
  struct Entry {
    int fd;
    Clock::time_point deadline;
    bool fired;
  };

  void run();
  void release(std::uint64_t id);
  bool fired(std::uint64_t id) const;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::uint64_t, Entry> entries_;
  std::uint64_t next_id_ = 1;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once everything above is initialised
};

}  // namespace skinpulse::net
