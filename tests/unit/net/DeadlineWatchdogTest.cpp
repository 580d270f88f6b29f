#include "net/DeadlineWatchdog.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <sys/socket.h>
#include <unistd.h>

using skinpulse::net::DeadlineWatchdog;
using Clock = DeadlineWatchdog::Clock;
using namespace std::chrono_literals;

namespace {

struct SocketPair {
  int fds[2] = {-1, -1};
  SocketPair() { CPPUNIT_ASSERT_EQUAL(0, ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds)); }
  ~SocketPair() {
    for (const int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
};

}  // namespace

class DeadlineWatchdogTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DeadlineWatchdogTest);
  CPPUNIT_TEST(testBlockedReadWokenAtDeadline);
  CPPUNIT_TEST(testReleasedWatchNeverFires);
  CPPUNIT_TEST(testDescriptorMayCloseBeforeRelease);
  CPPUNIT_TEST(testEarlierDeadlineArmedLaterStillFiresFirst);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testBlockedReadWokenAtDeadline() {
    DeadlineWatchdog watchdog;
    SocketPair pair;
    const auto started = Clock::now();
    auto watch = watchdog.watch(pair.fds[0], started + 200ms);
    char byte = 0;
    CPPUNIT_ASSERT_EQUAL(ssize_t{0}, ::recv(pair.fds[0], &byte, 1, 0));  // blocks until shutdown
    const auto elapsed = Clock::now() - started;
    CPPUNIT_ASSERT(elapsed >= 200ms);
    CPPUNIT_ASSERT(elapsed < 2s);
    CPPUNIT_ASSERT(watch.expired());
  }

  void testReleasedWatchNeverFires() {
    DeadlineWatchdog watchdog;
    SocketPair pair;
    { auto watch = watchdog.watch(pair.fds[0], Clock::now() + 100ms); }
    std::this_thread::sleep_for(300ms);
    CPPUNIT_ASSERT_EQUAL(ssize_t{1}, ::send(pair.fds[1], "x", 1, 0));
    char byte = 0;
    CPPUNIT_ASSERT_EQUAL(ssize_t{1}, ::recv(pair.fds[0], &byte, 1, 0));
  }

  void testDescriptorMayCloseBeforeRelease() {
    DeadlineWatchdog watchdog;
    SocketPair pair;
    auto watch = watchdog.watch(pair.fds[0], Clock::now() + 100ms);
    ::close(pair.fds[0]);
    pair.fds[0] = -1;
    std::this_thread::sleep_for(300ms);
    // The watchdog acted on its own duplicate; the peer sees the shutdown.
    char byte = 0;
    CPPUNIT_ASSERT_EQUAL(ssize_t{0}, ::recv(pair.fds[1], &byte, 1, 0));
    CPPUNIT_ASSERT(watch.expired());
  }

  void testEarlierDeadlineArmedLaterStillFiresFirst() {
    DeadlineWatchdog watchdog;
    SocketPair late;
    SocketPair early;
    auto late_watch = watchdog.watch(late.fds[0], Clock::now() + 1h);
    auto early_watch = watchdog.watch(early.fds[0], Clock::now() + 100ms);
    const auto started = Clock::now();
    char byte = 0;
    CPPUNIT_ASSERT_EQUAL(ssize_t{0}, ::recv(early.fds[0], &byte, 1, 0));
    CPPUNIT_ASSERT(Clock::now() - started < 2s);
    CPPUNIT_ASSERT(early_watch.expired());
    CPPUNIT_ASSERT(!late_watch.expired());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DeadlineWatchdogTest);
