#pragma once

// Reactor: one thread, one epoll instance, and the WebSocket connections assigned to it.
// Only this thread touches its connections; other threads hand it new sockets and
// update batches through a small locked inbox and an eventfd wake-up. A hub runs a
// fixed number of reactors, so the thread count never depends on the client count.

#include "ws/Connection.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace skinpulse::ws {

class Reactor {
 public:
  explicit Reactor(const ConnectionLimits& limits);
  ~Reactor();
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  void start();
  /// Closes every connection with 1001 (best effort) and joins the thread.
  void stop();

  /// Takes ownership of a connected socket whose handshake is done. Thread-safe.
  void adopt(int fd, std::string early_bytes);
  /// Queues `update` for every connection of this reactor. Thread-safe. With `wake`
  /// false the reactor is not woken for it: the caller hands over the rest of the cycle
  /// right after, so each client gets the whole cycle in one write (the next sweep takes
  /// it regardless).
  void broadcast(std::shared_ptr<UpdateFrames> update, bool wake = true);

  std::size_t connectionCount() const { return count_; }

 private:
  struct Adoption {
    int fd;
    std::string early;
  };

  void run();
  void wake();
  void takeInbox(Clock::time_point now);
  void afterEvent(Connection& connection);
  void remove(int fd);
  void sweep(Clock::time_point now);

  const ConnectionLimits& limits_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  std::thread thread_;
  std::unordered_map<int, std::unique_ptr<Connection>> connections_;
  std::atomic<std::size_t> count_{0};

  std::mutex mutex_;
  std::vector<Adoption> adoptions_;
  std::vector<std::shared_ptr<UpdateFrames>> updates_;
  bool stopping_ = false;
};

}  // namespace skinpulse::ws
