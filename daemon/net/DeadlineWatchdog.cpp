#include "net/DeadlineWatchdog.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace skinpulse::net {

DeadlineWatchdog::Watch::Watch(Watch&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)), id_(other.id_) {}

DeadlineWatchdog::Watch& DeadlineWatchdog::Watch::operator=(Watch&& other) noexcept {
  if (this != &other) {
    if (owner_ != nullptr) owner_->release(id_);
    owner_ = std::exchange(other.owner_, nullptr);
    id_ = other.id_;
  }
  return *this;
}

DeadlineWatchdog::Watch::~Watch() {
  if (owner_ != nullptr) owner_->release(id_);
}

bool DeadlineWatchdog::Watch::expired() const { return owner_ != nullptr && owner_->fired(id_); }

DeadlineWatchdog::DeadlineWatchdog() : thread_([this] { run(); }) {}

DeadlineWatchdog::~DeadlineWatchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  for (const auto& [id, entry] : entries_) ::close(entry.fd);
}

DeadlineWatchdog::Watch DeadlineWatchdog::watch(int socket_fd, Clock::time_point deadline) {
  const int fd = ::fcntl(socket_fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return Watch();
  std::uint64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    entries_.emplace(id, Entry{fd, deadline, false});
  }
  wake_.notify_all();
  return Watch(this, id);
}

void DeadlineWatchdog::release(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(id);
  if (it == entries_.end()) return;
  ::close(it->second.fd);
  entries_.erase(it);
}

bool DeadlineWatchdog::fired(std::uint64_t id) const {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(id);
  return it != entries_.end() && it->second.fired;
}

void DeadlineWatchdog::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto now = Clock::now();
    auto next = Clock::time_point::max();
    for (auto& [id, entry] : entries_) {
      if (entry.fired) continue;
      if (entry.deadline <= now) {
        // shutdown(), unlike close(), acts on the socket every descriptor of it shares,
        // and is safe while another thread is blocked in recv()/send() or SSL_read().
        ::shutdown(entry.fd, SHUT_RDWR);
        entry.fired = true;
      } else if (entry.deadline < next) {
        next = entry.deadline;
      }
    }
    if (next == Clock::time_point::max()) {
      wake_.wait(lock);
    } else {
      wake_.wait_until(lock, next);
    }
  }
}

}  // namespace skinpulse::net
