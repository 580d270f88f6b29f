#include "ws/Reactor.hpp"

#include "common/Log.hpp"
#include "telemetry/DaemonMetrics.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace skinpulse::ws {
namespace {

constexpr int kMaxEvents = 256;
constexpr std::size_t kReadBuffer = 16 * 1024;

void watch(int epoll_fd, int op, int fd, std::uint32_t events) {
  epoll_event event{};
  event.events = events;
  event.data.fd = fd;
  if (::epoll_ctl(epoll_fd, op, fd, &event) != 0 && op != EPOLL_CTL_DEL) {
    throw std::runtime_error(std::string("epoll_ctl: ") + std::strerror(errno));
  }
}

}  // namespace

Reactor::Reactor(const ConnectionLimits& limits) : limits_(limits) {
  epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd_ < 0 || wake_fd_ < 0) {
    if (epoll_fd_ >= 0) ::close(epoll_fd_);
    if (wake_fd_ >= 0) ::close(wake_fd_);
    throw std::runtime_error(std::string("live updates: cannot create a reactor: ") +
                             std::strerror(errno));
  }
  watch(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, EPOLLIN);
}

Reactor::~Reactor() {
  stop();
  for (const auto& adoption : adoptions_) ::close(adoption.fd);
  ::close(wake_fd_);
  ::close(epoll_fd_);
}

void Reactor::start() {
  thread_ = std::thread([this] { run(); });
}

void Reactor::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake();
  if (thread_.joinable()) thread_.join();
}

void Reactor::wake() {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto ignored = ::write(wake_fd_, &one, sizeof one);
}

void Reactor::adopt(int fd, std::string early_bytes, http::ConnectionSlot slot, std::string user_id,
                    std::string session_key, Clock::time_point session_expires_at) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      if (!user_id.empty()) ++users_[user_id];
      if (!session_key.empty()) ++sessions_[session_key];
      adoptions_.push_back(Adoption{fd, std::move(early_bytes), std::move(slot), std::move(user_id),
                                    std::move(session_key), session_expires_at});
      fd = -1;
    }
  }
  if (fd >= 0) {
    ::close(fd);
    return;
  }
  wake();
}

std::size_t Reactor::sendToUser(const std::string& user_id, std::string json) {
  std::size_t connections = 0;
  {
    std::lock_guard lock(mutex_);
    const auto it = users_.find(user_id);
    if (stopping_ || it == users_.end()) return 0;
    connections = it->second;
    user_messages_.push_back(UserMessage{user_id, std::move(json)});
  }
  wake();
  return connections;
}

std::vector<std::string> Reactor::sessionKeys() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> keys;
  keys.reserve(sessions_.size());
  for (const auto& [key, count] : sessions_) keys.push_back(key);
  return keys;
}

void Reactor::endSession(std::string session_key) {
  if (session_key.empty()) return;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    ended_sessions_.push_back(std::move(session_key));
  }
  wake();
}

void Reactor::broadcast(std::shared_ptr<UpdateFrames> update, bool wake_now) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    updates_.push_back(std::move(update));
  }
  if (wake_now) wake();
}

void Reactor::takeInbox(Clock::time_point now) {
  std::uint64_t value;
  [[maybe_unused]] const auto ignored = ::read(wake_fd_, &value, sizeof value);
  std::vector<Adoption> adoptions;
  std::vector<std::shared_ptr<UpdateFrames>> updates;
  std::vector<UserMessage> messages;
  std::vector<std::string> ended;
  {
    std::lock_guard lock(mutex_);
    adoptions.swap(adoptions_);
    updates.swap(updates_);
    messages.swap(user_messages_);
    ended.swap(ended_sessions_);
  }
  for (auto& adoption : adoptions) {
    auto connection =
        std::make_unique<Connection>(adoption.fd, limits_, now, std::move(adoption.slot));
    connection->setUserId(std::move(adoption.user_id));
    if (!adoption.session_key.empty()) {
      connection->setSession(std::move(adoption.session_key), adoption.session_expires_at);
      if (recently_ended_.count(connection->sessionKey()) > 0) connection->endSession(now);
    }
    auto& ref = *connection;
    connections_.emplace(adoption.fd, std::move(connection));
    count_ = connections_.size();
    telemetry::metrics().ws_clients.get().add(1);
    watch(epoll_fd_, EPOLL_CTL_ADD, adoption.fd, EPOLLIN | EPOLLRDHUP);
    if (!adoption.early.empty()) ref.receive(adoption.early, now);
    afterEvent(ref);
  }
  if (!ended.empty()) {
    for (const auto& key : ended) recently_ended_[key] = now;
    // Before this inbox's alerts: a message queued after a logout must not reach the
    // socket of the session that ended. Session ends are rare: a scan per inbox.
    visitAll([&ended, now](Connection& connection) {
      if (connection.sessionKey().empty() ||
          std::find(ended.begin(), ended.end(), connection.sessionKey()) == ended.end()) {
        return false;
      }
      connection.endSession(now);
      return true;
    });
  }
  if (!messages.empty()) {
    // Alerts are rare: a scan of this reactor's connections per message.
    visitAll([&messages](Connection& connection) {
      bool sent = false;
      for (const auto& message : messages) {
        if (connection.userId() != message.user_id) continue;
        connection.sendMessage(message.json);
        sent = true;
      }
      if (sent) connection.flush();
      return sent;
    });
  }
  if (updates.empty()) return;
  // Batches in publishing order (prices before volatility, cycle after cycle), all of
  // a client's frames queued before one write.
  const auto started = Clock::now();
  std::vector<UpdateFrames*> batches;
  for (const auto& update : updates) batches.push_back(update.get());
  visitAll([this, &batches](Connection& connection) {
    connection.deliver(batches, scratch_);
    connection.flush();
    return true;
  });
  pass_started_ = started.time_since_epoch().count();
  pass_finished_ = Clock::now().time_since_epoch().count();
  for (const auto* batch : batches) batch->delivered();
}

// Keeps the epoll interest in step with the send queue, or drops a finished connection.
void Reactor::afterEvent(Connection& connection) {
  if (connection.done()) {
    remove(connection.fd());
    return;
  }
  if (connection.wantsWrite() != connection.registered_for_write) {
    connection.registered_for_write = connection.wantsWrite();
    watch(epoll_fd_, EPOLL_CTL_MOD, connection.fd(),
          EPOLLIN | EPOLLRDHUP | (connection.registered_for_write ? EPOLLOUT : 0u));
  }
}

void Reactor::remove(int fd) {
  const auto it = connections_.find(fd);
  if (it != connections_.end() && !it->second->userId().empty()) {
    std::lock_guard lock(mutex_);
    const auto user = users_.find(it->second->userId());
    if (user != users_.end() && --user->second == 0) users_.erase(user);
    const auto session = sessions_.find(it->second->sessionKey());
    if (session != sessions_.end() && --session->second == 0) sessions_.erase(session);
  }
  watch(epoll_fd_, EPOLL_CTL_DEL, fd, 0);
  if (connections_.erase(fd) > 0) telemetry::metrics().ws_clients.get().add(-1);  // closes it
  count_ = connections_.size();
}

void Reactor::sweep(Clock::time_point now) {
  std::erase_if(recently_ended_,
                [now](const auto& entry) { return now - entry.second > std::chrono::minutes(1); });
  visitAll([now](Connection& connection) {
    connection.tick(now);
    return true;
  });
}

void Reactor::visitAll(const std::function<bool(Connection&)>& visit) {
  // Removing while iterating would invalidate the loop: finished ones go afterwards.
  std::vector<int> finished;
  for (auto& [fd, connection] : connections_) {
    if (!visit(*connection)) continue;
    if (connection->done()) {
      finished.push_back(fd);
    } else {
      afterEvent(*connection);
    }
  }
  for (const int fd : finished) remove(fd);
}

void Reactor::run() {
  std::vector<char> buffer(kReadBuffer);
  epoll_event events[kMaxEvents];
  auto next_sweep = Clock::now() + limits_.timer_interval;
  bool running = true;
  while (running) {
    // Rounded up: truncating would turn the last millisecond before a sweep into a
    // busy loop of zero-timeout waits.
    const auto wait = std::chrono::ceil<std::chrono::milliseconds>(next_sweep - Clock::now());
    const int ready = ::epoll_wait(epoll_fd_, events, kMaxEvents,
                                   static_cast<int>(std::max<std::int64_t>(0, wait.count())));
    if (ready < 0 && errno != EINTR) {
      log::main().error("live updates: epoll_wait failed: {}", std::strerror(errno));
      break;  // unreachable in practice: EBADF/EINVAL mean a bug
    }
    const auto now = Clock::now();
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wake_fd_) {
        std::unique_lock lock(mutex_);
        running = !stopping_;
        lock.unlock();
        if (running) takeInbox(now);
        continue;
      }
      const auto found = connections_.find(fd);
      if (found == connections_.end()) continue;
      Connection& connection = *found->second;
      if ((events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) {
        connection.onReadable(buffer.data(), buffer.size(), now);
      }
      if (!connection.done() && (events[i].events & EPOLLOUT) != 0) connection.flush();
      afterEvent(connection);
    }
    if (running && now >= next_sweep) {
      takeInbox(now);  // a batch queued without a wake-up whose follower never came
      sweep(now);
      next_sweep = now + limits_.timer_interval;
    }
  }
  for (auto& [fd, connection] : connections_) connection->goAway();
  telemetry::metrics().ws_clients.get().add(-static_cast<double>(connections_.size()));
  connections_.clear();
  count_ = 0;
}

}  // namespace skinpulse::ws
