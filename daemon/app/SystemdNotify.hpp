#pragma once

// The service-manager side of systemd's notify protocol (sd_notify(3)), without
// libsystemd: one datagram of "KEY=VALUE" lines to the AF_UNIX socket named by
// $NOTIFY_SOCKET. A path starting with '@' names an abstract socket. Without
// $NOTIFY_SOCKET (not started by systemd, or Type= is not notify) every call is a no-op,
// so the daemon runs the same from a shell.
//
// The watchdog: when $WATCHDOG_USEC is set (WatchdogSec= in the unit) and $WATCHDOG_PID is
// absent or names this process, WatchdogPinger sends WATCHDOG=1 at half that interval, as
// sd_watchdog_enabled(3) recommends.

#include "common/PeriodicTask.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace skinpulse::systemd {

class Notifier {
 public:
  /// Disabled: every send is a successful no-op.
  Notifier() = default;
  /// Sends to `socket_path` ("/run/..." or "@abstract"); empty disables.
  explicit Notifier(std::string socket_path,
                    std::optional<std::chrono::microseconds> watchdog = std::nullopt);

  /// Reads NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID (checked against `pid`).
  static Notifier fromEnvironment(const std::map<std::string, std::string>& environment, long pid);

  bool enabled() const { return !socket_path_.empty(); }
  const std::string& socketPath() const { return socket_path_; }
  /// The interval the service manager expects pings within (WATCHDOG_USEC), if any.
  std::optional<std::chrono::microseconds> watchdogTimeout() const { return watchdog_; }

  /// Sends `state` (newline-separated assignments) as one datagram. Returns an error
  /// message, or "" on success or when disabled. Never throws: the service keeps running
  /// when the manager is gone.
  std::string send(const std::string& state) const;

  std::string ready(const std::string& status) const;
  std::string stopping() const;
  std::string watchdog() const;

 private:
  std::string socket_path_;
  std::optional<std::chrono::microseconds> watchdog_;
};

/// Sends WATCHDOG=1 at half the watchdog timeout from its own thread, from start() until
/// stop() (or destruction). Does nothing when the notifier has no watchdog.
class WatchdogPinger {
 public:
  explicit WatchdogPinger(const Notifier& notifier) : notifier_(notifier) {}
  WatchdogPinger(const WatchdogPinger&) = delete;
  WatchdogPinger& operator=(const WatchdogPinger&) = delete;
  ~WatchdogPinger() { stop(); }

  void start();
  void stop();
  /// The ping interval: half the timeout, or nullopt without a watchdog.
  std::optional<std::chrono::microseconds> interval() const;

 private:
  const Notifier& notifier_;
  std::unique_ptr<common::PeriodicTask> task_;
};

}  // namespace skinpulse::systemd
