#include "app/SystemdNotify.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <random>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

using namespace skinpulse::systemd;

namespace {

// The manager's end: a datagram socket bound to a file path or an abstract name.
class FakeManager {
 public:
  explicit FakeManager(bool abstract) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    CPPUNIT_ASSERT(fd_ >= 0);
    std::random_device random;
    const std::string unique = std::to_string(::getpid()) + "-" + std::to_string(random());
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    socklen_t length = 0;
    if (abstract) {
      name_ = "@skinpulse-notify-test-" + unique;
      std::memcpy(address.sun_path + 1, name_.data() + 1, name_.size() - 1);
      length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name_.size());
    } else {
      name_ = (std::filesystem::temp_directory_path() / ("skinpulse-notify-" + unique)).string();
      std::memcpy(address.sun_path, name_.data(), name_.size());
      length = static_cast<socklen_t>(sizeof(address));
      path_ = name_;
    }
    CPPUNIT_ASSERT_EQUAL(0, ::bind(fd_, reinterpret_cast<sockaddr*>(&address), length));
    timeval timeout{5, 0};  // a missing datagram fails the test instead of hanging it
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  }
  ~FakeManager() {
    ::close(fd_);
    if (!path_.empty()) std::filesystem::remove(path_);
  }
  const std::string& name() const { return name_; }

  std::string receive() const {
    char buffer[4096];
    const ssize_t got = ::recv(fd_, buffer, sizeof(buffer), 0);
    return got < 0 ? std::string("<nothing received>") : std::string(buffer, got);
  }

 private:
  int fd_ = -1;
  std::string name_;
  std::string path_;
};

}  // namespace

class SystemdNotifyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SystemdNotifyTest);
  CPPUNIT_TEST(withoutNotifySocketEverySendIsANoOp);
  CPPUNIT_TEST(readyReachesAPathSocket);
  CPPUNIT_TEST(stoppingReachesAnAbstractSocket);
  CPPUNIT_TEST(watchdogTimeoutComesFromTheEnvironment);
  CPPUNIT_TEST(watchdogMeantForAnotherProcessIsIgnored);
  CPPUNIT_TEST(pingerSendsWatchdogUntilStopped);
  CPPUNIT_TEST(pingerWithoutWatchdogSendsNothing);
  CPPUNIT_TEST(unusableSocketsAreReportedNotThrown);
  CPPUNIT_TEST_SUITE_END();

 public:
  void withoutNotifySocketEverySendIsANoOp() {
    const auto notifier = Notifier::fromEnvironment({{"WATCHDOG_USEC", "1000000"}}, 42);
    CPPUNIT_ASSERT(!notifier.enabled());
    CPPUNIT_ASSERT_EQUAL(std::string(), notifier.ready("x"));
    CPPUNIT_ASSERT_EQUAL(std::string(), notifier.stopping());
    CPPUNIT_ASSERT(!notifier.watchdogTimeout());
  }

  void readyReachesAPathSocket() {
    const FakeManager manager(false);
    const auto notifier = Notifier::fromEnvironment({{"NOTIFY_SOCKET", manager.name()}}, 42);
    CPPUNIT_ASSERT(notifier.enabled());
    CPPUNIT_ASSERT_EQUAL(std::string(), notifier.ready("listening on 127.0.0.1:8080"));
    const std::string expected =
        "READY=1\nMAINPID=" + std::to_string(::getpid()) + "\nSTATUS=listening on 127.0.0.1:8080";
    CPPUNIT_ASSERT_EQUAL(expected, manager.receive());
  }

  void stoppingReachesAnAbstractSocket() {
    const FakeManager manager(true);
    const Notifier notifier(manager.name());
    CPPUNIT_ASSERT_EQUAL(std::string(), notifier.stopping());
    CPPUNIT_ASSERT_EQUAL(std::string("STOPPING=1\nSTATUS=shutting down"), manager.receive());
  }

  void watchdogTimeoutComesFromTheEnvironment() {
    const auto notifier = Notifier::fromEnvironment(
        {{"NOTIFY_SOCKET", "/run/x"}, {"WATCHDOG_USEC", "30000000"}, {"WATCHDOG_PID", "42"}}, 42);
    CPPUNIT_ASSERT(notifier.watchdogTimeout() == std::chrono::seconds(30));
    WatchdogPinger pinger(notifier);
    CPPUNIT_ASSERT(pinger.interval() == std::chrono::seconds(15));
    const auto garbage =
        Notifier::fromEnvironment({{"NOTIFY_SOCKET", "/run/x"}, {"WATCHDOG_USEC", "30s"}}, 42);
    CPPUNIT_ASSERT(!garbage.watchdogTimeout());
    const auto zero =
        Notifier::fromEnvironment({{"NOTIFY_SOCKET", "/run/x"}, {"WATCHDOG_USEC", "0"}}, 42);
    CPPUNIT_ASSERT(!zero.watchdogTimeout());
  }

  void watchdogMeantForAnotherProcessIsIgnored() {
    const auto notifier = Notifier::fromEnvironment(
        {{"NOTIFY_SOCKET", "/run/x"}, {"WATCHDOG_USEC", "30000000"}, {"WATCHDOG_PID", "41"}}, 42);
    CPPUNIT_ASSERT(notifier.enabled());
    CPPUNIT_ASSERT(!notifier.watchdogTimeout());
  }

  void pingerSendsWatchdogUntilStopped() {
    const FakeManager manager(true);
    const Notifier notifier(manager.name(), std::chrono::milliseconds(100));
    WatchdogPinger pinger(notifier);
    CPPUNIT_ASSERT(pinger.interval() == std::chrono::milliseconds(50));
    pinger.start();
    CPPUNIT_ASSERT_EQUAL(std::string("WATCHDOG=1"), manager.receive());
    CPPUNIT_ASSERT_EQUAL(std::string("WATCHDOG=1"), manager.receive());
    pinger.stop();
    pinger.stop();  // idempotent
  }

  void pingerWithoutWatchdogSendsNothing() {
    const FakeManager manager(true);
    const Notifier notifier(manager.name());
    WatchdogPinger pinger(notifier);
    CPPUNIT_ASSERT(!pinger.interval());
    pinger.start();
    pinger.stop();
    // The next datagram is the one we send now, not a ping.
    CPPUNIT_ASSERT_EQUAL(std::string(), notifier.send("STATUS=probe"));
    CPPUNIT_ASSERT_EQUAL(std::string("STATUS=probe"), manager.receive());
  }

  void unusableSocketsAreReportedNotThrown() {
    const std::string relative = Notifier("relative/path").ready("x");
    CPPUNIT_ASSERT(relative.find("neither a path nor an abstract socket") != std::string::npos);
    const std::string missing = Notifier("/nonexistent/skinpulse/notify").ready("x");
    CPPUNIT_ASSERT(missing.find("sendto(/nonexistent/skinpulse/notify)") != std::string::npos);
    const std::string tooLong = Notifier("/" + std::string(200, 'a')).ready("x");
    CPPUNIT_ASSERT(tooLong.find("longer than") != std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SystemdNotifyTest);
