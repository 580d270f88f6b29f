#include "ws/LiveHub.hpp"

#include "common/Log.hpp"
#include "common/Time.hpp"

#include <algorithm>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace skinpulse::ws {
LiveHub::LiveHub(HubOptions options) : options_(options) {
  const int threads = std::max(1, options_.threads);
  for (int i = 0; i < threads; ++i) reactors_.push_back(std::make_unique<Reactor>(options_.limits));
}

LiveHub::~LiveHub() { stop(); }

void LiveHub::start() {
  for (auto& reactor : reactors_) reactor->start();
  running_ = true;
}

void LiveHub::stop() {
  running_ = false;
  for (auto& reactor : reactors_) reactor->stop();
}

void LiveHub::adopt(int fd, std::string early_bytes, http::ConnectionSlot slot, std::string user_id,
                    std::string session_key, std::int64_t session_expires_at) {
  if (!running_) {
    ::close(fd);
    return;
  }
  // The HTTP layer hands the socket over blocking; the reactor needs it
  // non-blocking, small update frames must not wait for Nagle, and the kernel's send
  // buffer is bounded like our queue (ConnectionLimits::socket_send_buffer).
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (options_.limits.socket_send_buffer > 0) {
    const int size = static_cast<int>(options_.limits.socket_send_buffer);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
  }
  // The session's wall-clock expiry on the reactors' steady clock (their timers).
  const auto expires = Clock::now() + std::chrono::seconds(std::max<std::int64_t>(
                                          0, session_expires_at - time::nowSeconds()));
  const auto index = next_.fetch_add(1, std::memory_order_relaxed) % reactors_.size();
  reactors_[index]->adopt(fd, std::move(early_bytes), std::move(slot), std::move(user_id),
                          std::move(session_key), expires);
}

void LiveHub::endSession(const std::string& session_key) {
  if (!running_ || session_key.empty()) return;
  for (auto& reactor : reactors_) reactor->endSession(session_key);
}

std::size_t LiveHub::sendToUser(const std::string& user_id, const std::string& json) {
  if (!running_ || user_id.empty()) return 0;
  std::size_t connections = 0;
  for (auto& reactor : reactors_) connections += reactor->sendToUser(user_id, json);
  return connections;
}

namespace {

// Counts the reactors down for one batch; the last one reports its fan-out.
struct FanoutClock {
  Clock::time_point started;
  std::atomic<std::size_t> reactors_left;
  events::UpdateBatchPtr batch;
  ingest::CycleTimingsObserver* observer;

  void reactorDone() {
    if (reactors_left.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    const auto took = Clock::now() - started;
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(took).count();
    log::main().debug("cycle {} of {} entries: fanout={}.{} ms", batch->kind(),
                      batch->entries().size(), micros / 1000, micros % 1000 / 100);
    // The prices frames are what every subscriber waits for; volatility is only logged.
    if (observer == nullptr || batch->kind() != "prices") return;
    ingest::CycleTimings timings;
    timings.set(ingest::CycleStage::kFanout, took);
    timings.points = batch->entries().size();
    observer->onCycleTimings(timings);
  }
};

}  // namespace

void LiveHub::publish(const events::UpdateBatchPtr& batch) {
  if (!running_ || batch->empty()) return;
  auto update = std::make_shared<UpdateFrames>(batch);
  auto clock = std::make_shared<FanoutClock>();
  clock->started = Clock::now();
  clock->reactors_left = reactors_.size();
  clock->batch = batch;
  clock->observer = timings_observer_;
  update->setOnDelivered([clock] { clock->reactorDone(); });
  for (auto& reactor : reactors_) reactor->broadcast(update, !batch->followed());
}

std::size_t LiveHub::connectionCount() const {
  std::size_t total = 0;
  for (const auto& reactor : reactors_) total += reactor->connectionCount();
  return total;
}

std::vector<std::string> LiveHub::sessionKeys() {
  std::vector<std::string> keys;
  for (auto& reactor : reactors_) {
    for (auto& key : reactor->sessionKeys()) keys.push_back(std::move(key));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::vector<Reactor::Pass> LiveHub::lastPasses() const {
  std::vector<Reactor::Pass> passes;
  for (const auto& reactor : reactors_) passes.push_back(reactor->lastPass());
  return passes;
}

}  // namespace skinpulse::ws
