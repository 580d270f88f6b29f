#include "app/SystemdNotify.hpp"

#include "common/Log.hpp"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace skinpulse::systemd {
namespace {

// Closes the descriptor on every path out of send().
class Socket {
 public:
  Socket() : fd_(::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

std::optional<long long> parsePositive(const std::string& text) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  long long value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value <= 0) return std::nullopt;
  return value;
}

}  // namespace

Notifier::Notifier(std::string socket_path, std::optional<std::chrono::microseconds> watchdog)
    : socket_path_(std::move(socket_path)), watchdog_(watchdog) {}

Notifier Notifier::fromEnvironment(const std::map<std::string, std::string>& environment,
                                   long pid) {
  const auto socket = environment.find("NOTIFY_SOCKET");
  if (socket == environment.end() || socket->second.empty()) return Notifier();
  std::optional<std::chrono::microseconds> watchdog;
  const auto usec = environment.find("WATCHDOG_USEC");
  if (usec != environment.end()) {
    const auto value = parsePositive(usec->second);
    // WATCHDOG_PID is set when the manager means one specific process (not a child
    // that inherited the environment).
    const auto owner = environment.find("WATCHDOG_PID");
    const bool ours = owner == environment.end() || parsePositive(owner->second) == pid;
    if (value && ours) watchdog = std::chrono::microseconds(*value);
  }
  return Notifier(socket->second, watchdog);
}

std::string Notifier::send(const std::string& state) const {
  if (!enabled()) return {};
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket_path_[0] != '/' && socket_path_[0] != '@') {
    return "NOTIFY_SOCKET '" + socket_path_ + "' is neither a path nor an abstract socket";
  }
  if (socket_path_.size() >= sizeof(address.sun_path)) {
    return "NOTIFY_SOCKET is longer than " + std::to_string(sizeof(address.sun_path) - 1) +
           " bytes";
  }
  std::memcpy(address.sun_path, socket_path_.data(), socket_path_.size());
  // An abstract address starts with NUL and its length is exact: no terminator counted.
  if (socket_path_[0] == '@') address.sun_path[0] = '\0';
  const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + socket_path_.size() +
                                             (socket_path_[0] == '@' ? 0 : 1));
  const Socket socket;
  if (socket.fd() < 0) return std::string("socket(AF_UNIX): ") + std::strerror(errno);
  const ssize_t sent = ::sendto(socket.fd(), state.data(), state.size(), MSG_NOSIGNAL,
                                reinterpret_cast<const sockaddr*>(&address), length);
  if (sent < 0) return "sendto(" + socket_path_ + "): " + std::strerror(errno);
  if (static_cast<std::size_t>(sent) != state.size()) return "short datagram to " + socket_path_;
  return {};
}

std::string Notifier::ready(const std::string& status) const {
  return send("READY=1\nMAINPID=" + std::to_string(::getpid()) + "\nSTATUS=" + status);
}

std::string Notifier::stopping() const { return send("STOPPING=1\nSTATUS=shutting down"); }

std::string Notifier::watchdog() const { return send("WATCHDOG=1"); }

std::optional<std::chrono::microseconds> WatchdogPinger::interval() const {
  const auto timeout = notifier_.watchdogTimeout();
  if (!timeout) return std::nullopt;
  return std::max(std::chrono::microseconds(1), *timeout / 2);
}

void WatchdogPinger::start() {
  const auto every = interval();
  if (!every || task_) return;
  // At least a millisecond: the task's resolution; systemd's timeouts are seconds.
  const auto period = std::max(std::chrono::milliseconds(1),
                               std::chrono::duration_cast<std::chrono::milliseconds>(*every));
  task_ = std::make_unique<common::PeriodicTask>(
      "systemd watchdog ping", std::chrono::milliseconds(0), period, [this] {
        if (const auto error = notifier_.watchdog(); !error.empty()) {
          log::main().warn("systemd watchdog ping failed: {}", error);
        }
      });
  task_->start();
}

void WatchdogPinger::stop() {
  if (task_) task_->stop();
  task_.reset();
}

}  // namespace skinpulse::systemd
