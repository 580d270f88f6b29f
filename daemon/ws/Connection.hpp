#pragma once

// Connection: one WebSocket client after the handshake, driven by its reactor thread
// only (no locking). It decodes what the client sends, answers the protocol, queues
// update frames for its subscription, and runs the close handshake. Its send queue is
// bounded: a client that still has more than the limit queued when the next cycle's
// updates arrive (or when a reply would take it past the limit) is closed with 1013, so
// a slow reader costs at most the limit plus one cycle's frames (shared with every "*"
// subscriber) and never delays anyone else. A cycle itself may be bigger than the limit
// (a "*" subscriber gets ~10 MB for 25,000 items) and still reach a reader that keeps up.

#include "http/ConnectionLimiter.hpp"
#include "ws/FrameDecoder.hpp"
#include "ws/Protocol.hpp"
#include "ws/UpdateFrames.hpp"

#include <chrono>
#include <deque>
#include <string>
#include <vector>

namespace skinpulse::ws {

using Clock = std::chrono::steady_clock;

/// The close code of a signed-in connection whose session ended (logout, a new login or
/// link, expiry; docs/api.md §7): private-use range of RFC 6455 §7.4.2. The client
/// reconnects, and its new handshake is signed in only with a live session.
constexpr std::uint16_t kSessionEndedCloseCode = 4001;

struct ConnectionLimits {
  std::size_t max_message_bytes = 4096;    ///< bigger client messages: close 1009
  std::size_t max_queued_bytes = 1 << 20;  ///< more queued at the next cycle: close 1013
  Clock::duration ping_interval = std::chrono::seconds(30);
  Clock::duration idle_timeout = std::chrono::seconds(90);  ///< silent this long: dropped
  Clock::duration close_wait = std::chrono::seconds(1);     ///< for the client's close frame
  /// How long our close frame may wait behind a slow reader's unread data.
  Clock::duration close_flush = std::chrono::seconds(5);
  /// SO_SNDBUF of a client socket (Linux doubles it; 0: kernel autotuning). What the
  /// kernel holds for a client is part of its cost too: autotuning lets each socket's
  /// buffer grow to net.ipv4.tcp_wmem's maximum (4 MiB by default), so a few hundred "*"
  /// subscribers could pin gigabytes of the box's TCP memory, outside the queue bound.
  std::size_t socket_send_buffer = 256 * 1024;
  /// How often a reactor runs the timers above (and takes batches queued without a
  /// wake-up); their resolution.
  Clock::duration timer_interval = std::chrono::milliseconds(200);
};

class Connection {
 public:
  /// Takes ownership of `fd` (non-blocking). `early` holds bytes the client sent right
  /// after its handshake, already read by the HTTP layer. `slot` is the connection's
  /// place under the HTTP server's caps (docs/api.md §11), held until it is destroyed.
  Connection(int fd, const ConnectionLimits& limits, Clock::time_point now,
             http::ConnectionSlot slot = {});
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  int fd() const { return fd_; }
  /// The signed-in user of the handshake (docs/api.md §13); empty: anonymous.
  const std::string& userId() const { return user_id_; }
  void setUserId(std::string user_id) { user_id_ = std::move(user_id); }
  /// Binds a signed-in connection to the session of its handshake: `session_key` (the
  /// shared-store key) and when that session expires. At `expires_at` (tick), or when
  /// endSession() is called, the connection closes with kSessionEndedCloseCode; until
  /// the close is sent it takes no more user messages.
  void setSession(std::string session_key, Clock::time_point expires_at);
  const std::string& sessionKey() const { return session_key_; }
  /// The session of this connection ended: close 4001 "session ended" (nothing when the
  /// connection has no session).
  void endSession(Clock::time_point now);
  /// Queues one text frame (an alert for this connection's user), within the queue cap.
  void sendMessage(std::string_view json) { sendText(json); }

  /// Processes `data` received from the client.
  void receive(std::string_view data, Clock::time_point now);
  /// Reads what the socket holds into `buffer` and processes it.
  void onReadable(char* buffer, std::size_t size, Clock::time_point now);
  /// Writes as much of the send queue as the socket takes.
  void flush();
  /// Queues the frames of `update` this client subscribed to; flush() sends them.
  void deliver(UpdateFrames& update);
  /// The same for several updates in publishing order; a client's own frames of all of
  /// them (prices and volatility of a cycle) go into one buffer.
  void deliver(const std::vector<UpdateFrames*>& updates);
  /// The same, assembling the client's frames in `scratch` (the reactor's, reused for
  /// every client): with nothing queued they are sent from there at once, in one send(),
  /// and only what the socket does not take is copied into the send queue.
  void deliver(const std::vector<UpdateFrames*>& updates, std::string& scratch);
  /// Timers: server pings, idle drop, session expiry, close-handshake deadlines.
  void tick(Clock::time_point now);
  /// Daemon shutdown: a close 1001 sent best-effort, then done.
  void goAway();

  bool wantsWrite() const { return !queue_.empty() && !done_; }
  /// The connection is over: the reactor closes the descriptor.
  bool done() const { return done_; }
  /// The close code we sent, 0 if none (tests, logs).
  std::uint16_t sentCloseCode() const { return sent_close_code_; }
  std::size_t queuedBytes() const { return queued_bytes_; }
  const Subscription& subscription() const { return subscription_; }

  /// Whether the reactor registered interest in writability (reactor bookkeeping).
  bool registered_for_write = false;

 private:
  std::string user_id_;
  std::string session_key_;  ///< empty: anonymous, nothing to end
  Clock::time_point session_expires_at_{};
  void onMessage(DecodedMessage&& message, Clock::time_point now);
  void onText(const std::string& text, Clock::time_point now);
  void send(SharedBytes bytes);
  void push(SharedBytes bytes);
  /// Writes `bytes` now (the queue is empty); queues what the socket does not take.
  void sendNow(std::string_view bytes);
  void sendText(std::string_view json);
  void startClose(std::uint16_t code, std::string_view reason, Clock::time_point now);
  void finish() { done_ = true; }

  int fd_;
  const ConnectionLimits& limits_;
  FrameDecoder decoder_;
  Subscription subscription_;
  std::deque<SharedBytes> queue_;
  std::size_t head_offset_ = 0;  ///< bytes of queue_.front() already written
  std::size_t queued_bytes_ = 0;
  std::int64_t current_cycle_ = 0;  ///< cycle of the last update delivered
  Clock::time_point last_heard_;
  Clock::time_point last_ping_;
  // Closing: set once a close frame is queued (ours or our echo of the client's).
  bool closing_ = false;
  bool peer_closed_ = false;  ///< the client sent its close frame
  Clock::time_point close_started_;
  Clock::time_point close_flushed_;  ///< when our close frame left the queue
  bool close_sent_ = false;
  std::uint16_t sent_close_code_ = 0;
  bool done_ = false;
  http::ConnectionSlot slot_;
};

}  // namespace skinpulse::ws
