#pragma once

// ConnectionLimiter and ConnectionSlot: the connection caps of docs/api.md §11
// (`[http] max_connections`, `[http] max_connections_per_ip`). The HTTP server asks
// for a slot for every accepted socket and refuses the connection (503
// too_many_connections) without one. A slot is move-only and gives its place back when
// destroyed, so a connection counts for exactly as long as its slot lives: an HTTP
// connection until it closes, a WebSocket until the ws reactor drops it (the slot
// travels with Response::take_over). Thread-safe; slots may outlive the limiter's owner
// (they share its state).

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace skinpulse::http {

class ConnectionSlot;

class ConnectionLimiter {
 public:
  ConnectionLimiter(std::size_t max_total, std::size_t max_per_address);

  /// A slot for a connection from `address`, or nullopt when a cap is reached.
  std::optional<ConnectionSlot> tryAcquire(const std::string& address);

  std::size_t total() const;
  std::size_t countOf(const std::string& address) const;

  struct State {
    std::size_t max_total;
    std::size_t max_per_address;
    mutable std::mutex mutex;
    std::size_t total = 0;
    std::unordered_map<std::string, std::size_t> per_address;
  };

 private:
  std::shared_ptr<State> state_;
};

class ConnectionSlot {
 public:
  /// An empty slot (holds no place): what tests and direct adoptions pass.
  ConnectionSlot() = default;
  ConnectionSlot(std::shared_ptr<ConnectionLimiter::State> state, std::string address)
      : state_(std::move(state)), address_(std::move(address)) {}
  ~ConnectionSlot() { release(); }
  ConnectionSlot(ConnectionSlot&& other) noexcept = default;
  ConnectionSlot& operator=(ConnectionSlot&& other) noexcept {
    if (this != &other) {
      release();
      state_ = std::move(other.state_);
      address_ = std::move(other.address_);
    }
    return *this;
  }
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;

  /// Gives the place back now (idempotent).
  void release();
  bool held() const { return state_ != nullptr; }

 private:
  std::shared_ptr<ConnectionLimiter::State> state_;
  std::string address_;
};

}  // namespace skinpulse::http
