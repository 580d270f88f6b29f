#pragma once

// Reactor: one thread, one epoll instance, and the WebSocket connections assigned to it.
// Only this thread touches its connections; other threads hand it new sockets and
// update batches through a small locked inbox and an eventfd wake-up. A hub runs a
// fixed number of reactors, so the thread count never depends on the client count.

#include "ws/Connection.hpp"

#include <atomic>
#include <functional>
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

  /// Takes ownership of a connected socket whose handshake is done, and of its place
  /// under the HTTP caps (released when the connection ends). Thread-safe.
  /// `session_key`/`session_expires_at`: the signed-in session (Connection::setSession).
  void adopt(int fd, std::string early_bytes, http::ConnectionSlot slot = {},
             std::string user_id = {}, std::string session_key = {},
             Clock::time_point session_expires_at = {});
  /// Closes this reactor's connections of the session stored under `session_key` with
  /// 4001 (Connection::endSession), on the reactor thread. Thread-safe.
  void endSession(std::string session_key);
  /// Queues `json` as a text frame to this reactor's connections of `user_id`; returns
  /// how many it has (the frames leave on the reactor thread).
  std::size_t sendToUser(const std::string& user_id, std::string json);
  /// Queues `update` for every connection of this reactor. Thread-safe. With `wake`
  /// false the reactor is not woken for it: the caller hands over the rest of the cycle
  /// right after, so each client gets the whole cycle in one write (the next sweep takes
  /// it regardless).
  void broadcast(std::shared_ptr<UpdateFrames> update, bool wake = true);

  std::size_t connectionCount() const { return count_; }
  /// The sessions of this reactor's signed-in connections, adopted and not yet removed.
  /// Thread-safe.
  std::vector<std::string> sessionKeys();

  /// When this reactor's last pass over its clients with update batches started and
  /// ended (steady clock; zero before the first): what the server itself takes to hand a
  /// cycle to the kernel, for benchmarks and diagnostics.
  struct Pass {
    Clock::time_point started;
    Clock::time_point finished;
  };
  Pass lastPass() const {
    return Pass{Clock::time_point(Clock::duration(pass_started_.load())),
                Clock::time_point(Clock::duration(pass_finished_.load()))};
  }

 private:
  struct Adoption {
    int fd;
    std::string early;
    http::ConnectionSlot slot;
    std::string user_id;
    std::string session_key;
    Clock::time_point session_expires_at;
  };
  struct UserMessage {
    std::string user_id;
    std::string json;
  };

  void run();
  void wake();
  void takeInbox(Clock::time_point now);
  void afterEvent(Connection& connection);
  void remove(int fd);
  void sweep(Clock::time_point now);
  /// Runs `visit` on every connection; one it touched (visit answered true) is then
  /// dropped when done, or has its epoll interest brought in step.
  void visitAll(const std::function<bool(Connection&)>& visit);

  const ConnectionLimits& limits_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  std::thread thread_;
  std::unordered_map<int, std::unique_ptr<Connection>> connections_;
  /// Sessions ended in the last minute (reactor thread only): a handshake that loaded its
  /// session just before the logout may be adopted just after the end went by.
  std::unordered_map<std::string, Clock::time_point> recently_ended_;
  std::atomic<std::size_t> count_{0};
  /// Where each client's frames of a pass are assembled (reactor thread only): reused,
  /// so a client that keeps up costs no allocation.
  std::string scratch_;
  std::atomic<Clock::rep> pass_started_{0};
  std::atomic<Clock::rep> pass_finished_{0};

  std::mutex mutex_;
  std::vector<Adoption> adoptions_;
  std::vector<std::shared_ptr<UpdateFrames>> updates_;
  std::vector<UserMessage> user_messages_;
  std::vector<std::string> ended_sessions_;
  /// Signed-in connections per user, adopted and not yet removed (under mutex_).
  std::unordered_map<std::string, std::size_t> users_;
  /// Signed-in connections per session key, likewise (under mutex_).
  std::unordered_map<std::string, std::size_t> sessions_;
  bool stopping_ = false;
};

}  // namespace skinpulse::ws
