#pragma once

// LiveHub: the WebSocket side of live updates. Owns a fixed set of reactor threads;
// sockets whose handshake the HTTP server completed are spread over them round-robin,
// and every batch from the event bus is wrapped once (UpdateFrames) and handed to each
// reactor, which queues it on its own connections.

#include "events/UpdateBatch.hpp"
#include "ingest/CycleTimings.hpp"
#include "ws/Connection.hpp"
#include "ws/Reactor.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace skinpulse::ws {

struct HubOptions {
  int threads = 2;  ///< reactor threads; independent of the number of clients
  ConnectionLimits limits;
};

class LiveHub {
 public:
  explicit LiveHub(HubOptions options = {});
  ~LiveHub();
  LiveHub(const LiveHub&) = delete;
  LiveHub& operator=(const LiveHub&) = delete;

  void start();
  /// Sends close 1001 to every client and stops the reactors.
  void stop();
  bool accepting() const { return running_; }

  /// Takes ownership of a socket after a successful handshake, and of its place under
  /// the HTTP server's caps (`slot`, held until the client is gone); closes it when
  /// stopped.
  /// `user_id`: the signed-in user of the handshake (empty: anonymous), who receives
  /// sendToUser()'s frames on this connection.
  /// `session_key` and `session_expires_at` (Unix seconds): the signed-in session of the
  /// handshake; the connection closes with 4001 when it expires or endSession() names it.
  void adopt(int fd, std::string early_bytes, http::ConnectionSlot slot = {},
             std::string user_id = {}, std::string session_key = {},
             std::int64_t session_expires_at = 0);
  /// Closes every connection of the session stored under `session_key` on this instance
  /// with 4001 "session ended". Never blocks on a client.
  void endSession(const std::string& session_key);
  /// Sends one text frame to every signed-in connection of `user_id` on this instance;
  /// returns how many there are. Never blocks on a client.
  std::size_t sendToUser(const std::string& user_id, const std::string& json);
  /// Forwards one batch to the subscribed clients. Never blocks on a client.
  void publish(const events::UpdateBatchPtr& batch);

  /// Told each cycle's fan-out (CycleStage::kFanout): from the hub taking the prices
  /// batch to the last reactor handing it to every client's socket. Every batch's
  /// fan-out is logged at debug. Set before start().
  void setTimingsObserver(ingest::CycleTimingsObserver* observer) { timings_observer_ = observer; }

  std::size_t connectionCount() const;
  /// The distinct sessions of the signed-in connections on this instance.
  std::vector<std::string> sessionKeys();
  /// Each reactor's last delivery pass (Reactor::lastPass).
  std::vector<Reactor::Pass> lastPasses() const;

 private:
  HubOptions options_;
  std::vector<std::unique_ptr<Reactor>> reactors_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> running_{false};
  ingest::CycleTimingsObserver* timings_observer_ = nullptr;
};

}  // namespace skinpulse::ws
