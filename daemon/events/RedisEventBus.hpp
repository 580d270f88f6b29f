#pragma once

// RedisEventBus: the event bus shared by every daemon on one Redis server. A batch is
// delivered to the local receivers at once, then published on a Redis channel by a
// background thread (ingestion never waits for Redis); a receiver thread subscribed to
// the channel delivers the batches of the other instances. Live updates are ephemeral:
// while Redis is unreachable, batches for other instances are dropped (logged) and both
// threads reconnect every second. Session ends travel the same way on a second channel
// (`<channel>:sessions`, payload "<origin> <session key>"), so a logout on one daemon
// closes the session's sockets on every daemon; one lost while Redis is down is caught
// by the hub's periodic store check (ws/SessionCheck.hpp; docs/api.md §7).

#include "events/EventBus.hpp"
#include "redis/RedisUrl.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace skinpulse::events {

class RedisEventBus final : public EventBus {
 public:
  static constexpr const char* kDefaultChannel = "skinpulse:live";

  explicit RedisEventBus(redis::RedisUrl address, std::string channel = kDefaultChannel);
  ~RedisEventBus() override;

  void subscribe(BatchHandler handler) override;
  void publish(const UpdateBatchPtr& batch) override;
  void subscribeSessionEnds(SessionEndHandler handler) override;
  void publishSessionEnd(const std::string& session_key) override;
  void start() override;
  void stop() override;
  std::string name() const override { return "redis"; }

  /// This instance's tag on the channel.
  const std::string& origin() const { return origin_; }
  /// Whether the receiver currently holds a confirmed subscription.
  bool subscribed() const { return subscribed_; }

 private:
  void publishLoop();
  void receiveLoop();
  void receiveOnConnection();
  /// Sleeps up to `seconds` unless stopping; false when stopping.
  bool pause(int seconds);

  redis::RedisUrl address_;
  std::string channel_;
  std::string sessions_channel_;
  std::string origin_;
  std::vector<BatchHandler> handlers_;
  std::vector<SessionEndHandler> session_handlers_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<UpdateBatchPtr> outbox_;
  std::deque<std::string> ended_outbox_;  ///< session keys not yet published
  bool stopping_ = false;
  std::atomic<bool> subscribed_{false};
  std::thread publisher_;
  std::thread receiver_;
};

}  // namespace skinpulse::events
