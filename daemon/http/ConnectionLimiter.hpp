#pragma once

// ConnectionLimiter and ConnectionSlot: the connection caps of docs/api.md §11
// (`[http] max_connections`, `[http] max_connections_per_ip`,
// `[http] max_websockets_per_client`). The HTTP server asks for a slot for every accepted
// socket and refuses the connection (503 too_many_connections) without one. A slot is
// move-only and gives its place back when destroyed, so a connection counts for exactly
// as long as its slot lives: an HTTP connection until it closes, a WebSocket until the ws
// reactor drops it (the slot travels with Response::take_over). Thread-safe; slots may
// outlive the limiter's owner (they share its state).
//
// Places are counted per *client key* (http::rateLimitKey: an IPv4 address, an IPv6
// /64), the same key as the rate limit, so one subscriber cannot take the door by rotating
// through its /64. A connection from a trusted reverse proxy is accepted without the
// per-client check (the proxy is many clients) and re-keyed to the forwarded client once
// a request head says who that is (ConnectionSlot::rekey, every request: a proxy may reuse
// a connection for several clients).
//
// Near the global cap (from 90 % of max_connections) a newcomer is not refused while some
// other client holds more than its fair share (max_connections / clients) with an idle
// keep-alive connection: that client's oldest idle connection is evicted (its place goes
// to the newcomer at once; the connection is closed on its loop). So one client's idle
// sockets cannot shut everyone else out.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace skinpulse::http {

class ConnectionSlot;

class ConnectionLimiter {
 public:
  static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

  ConnectionLimiter(std::size_t max_total, std::size_t max_per_client,
                    std::size_t max_websockets_per_client = kUnlimited);

  /// A slot for a connection of client `key`, or nullopt when a cap is reached.
  /// `via_proxy`: the peer is a trusted proxy; the per-client cap waits for the request
  /// head (ConnectionSlot::rekey).
  std::optional<ConnectionSlot> tryAcquire(const std::string& key, bool via_proxy = false);

  std::size_t total() const;
  std::size_t countOf(const std::string& key) const;
  std::size_t websocketsOf(const std::string& key) const;
  /// Idle connections closed to make room for another client, since the start.
  std::uint64_t evictions() const;

  /// One counted connection. The key and flags are guarded by State::mutex; the idle time
  /// is an atomic so a connection going idle or busy costs no lock.
  struct Entry {
    std::string key;
    bool counted = true;     ///< false once released or evicted
    bool websocket = false;  ///< counted under max_websockets_per_client
    /// steady_clock nanoseconds since the connection went idle; 0: busy.
    std::atomic<std::int64_t> idle_since{0};
    /// Closes the connection on its own thread (set by the server); empty: not evictable.
    std::function<void()> evict;
  };

  struct Client {
    std::size_t connections = 0;
    std::size_t websockets = 0;
    std::unordered_set<Entry*> entries;
  };

  struct State {
    std::size_t max_total = 0;
    std::size_t max_per_client = 0;
    std::size_t max_websockets_per_client = kUnlimited;
    std::size_t evict_from = 0;  ///< total from which idle hogs are evicted
    mutable std::mutex mutex;
    std::size_t total = 0;
    std::uint64_t evictions = 0;
    std::unordered_map<std::string, Client> clients;

    /// Removes `entry` from the counts (under mutex).
    void uncount(Entry& entry);
    /// The oldest idle evictable entry of the client holding the most connections over
    /// its fair share, other than `newcomer` (under mutex); null when there is none.
    Entry* evictionVictim(const std::string& newcomer) const;
  };

 private:
  std::shared_ptr<State> state_;
};

/// A connection's place as seen by a handler (Request::connection): copyable, owns
/// nothing. Empty (tests, a request built without a server): every claim succeeds.
class ConnectionHandle {
 public:
  ConnectionHandle() = default;
  ConnectionHandle(std::shared_ptr<ConnectionLimiter::State> state,
                   std::weak_ptr<ConnectionLimiter::Entry> entry)
      : state_(std::move(state)), entry_(std::move(entry)) {}

  /// Counts the connection as a WebSocket of its client (idempotent); false when the
  /// client already holds `max_websockets_per_client` of them, or the place is gone.
  bool claimWebSocket() const;

 private:
  std::shared_ptr<ConnectionLimiter::State> state_;
  std::weak_ptr<ConnectionLimiter::Entry> entry_;
};

class ConnectionSlot {
 public:
  /// An empty slot (holds no place): what tests and direct adoptions pass.
  ConnectionSlot() = default;
  ConnectionSlot(std::shared_ptr<ConnectionLimiter::State> state,
                 std::shared_ptr<ConnectionLimiter::Entry> entry)
      : state_(std::move(state)), entry_(std::move(entry)) {}
  ~ConnectionSlot() { release(); }
  ConnectionSlot(ConnectionSlot&& other) noexcept = default;
  ConnectionSlot& operator=(ConnectionSlot&& other) noexcept {
    if (this != &other) {
      release();
      state_ = std::move(other.state_);
      entry_ = std::move(other.entry_);
    }
    return *this;
  }
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;

  /// Gives the place back now (idempotent).
  void release();
  bool held() const { return state_ != nullptr; }

  /// Charges the connection to client `key` from now on (a request from a trusted proxy
  /// names its client). False, and the place stays where it was, when `key` already
  /// holds max_connections_per_ip. An empty slot accepts any key.
  bool rekey(const std::string& key);
  /// The client key the place is counted under ("" for an empty slot).
  std::string key() const;
  /// Waiting for the next request (evictable near the global cap) or busy.
  void setIdle(bool idle);
  /// How the limiter closes this connection when it evicts it; called under the
  /// limiter's lock, so it must only post work elsewhere.
  void setEvictor(std::function<void()> evict);
  ConnectionHandle handle() const { return ConnectionHandle(state_, entry_); }

 private:
  std::shared_ptr<ConnectionLimiter::State> state_;
  std::shared_ptr<ConnectionLimiter::Entry> entry_;
};

}  // namespace skinpulse::http
