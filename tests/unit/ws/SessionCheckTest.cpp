#include "WsTestSupport.hpp"
#include "common/Time.hpp"
#include "unit/portfolio/MemorySharedStore.hpp"
#include "ws/LiveHub.hpp"
#include "ws/SessionCheck.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace skinpulse;
using namespace std::chrono_literals;

// The backstop for a session end the event bus lost (Redis down at the logout): the
// sockets of a session no longer in the shared store close with 4001; a store outage
// closes nothing.
class SessionCheckTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SessionCheckTest);
  CPPUNIT_TEST(aGoneSessionsSocketsClose);
  CPPUNIT_TEST(aStoreOutageClosesNothing);
  CPPUNIT_TEST_SUITE_END();

  std::vector<int> clients_;

  int connect(ws::LiveHub& hub, const std::string& session) {
    int fds[2];
    CPPUNIT_ASSERT_EQUAL(0, ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds));
    hub.adopt(fds[0], "", {}, "user-1", session, time::nowSeconds() + 3600);
    clients_.push_back(fds[1]);
    return fds[1];
  }

  static std::vector<wstest::ServerFrame> await(int fd, std::string& inbox) {
    const auto deadline = std::chrono::steady_clock::now() + 1s;
    while (std::chrono::steady_clock::now() < deadline) {
      wstest::drain(fd, inbox);
      auto frames = wstest::parseServerFrames(inbox);
      if (!frames.empty()) return frames;
      std::this_thread::sleep_for(2ms);
    }
    return {};
  }

  static void waitAdopted(ws::LiveHub& hub, std::size_t sessions) {
    for (int i = 0; i < 200 && hub.sessionKeys().size() < sessions; ++i) {
      std::this_thread::sleep_for(5ms);
    }
    CPPUNIT_ASSERT_EQUAL(sessions, hub.sessionKeys().size());
  }

 public:
  void tearDown() override {
    for (const int fd : clients_) ::close(fd);
    clients_.clear();
  }

  void aGoneSessionsSocketsClose() {
    test::MemorySharedStore store;
    store.set("session:live", "{}", state::Ttl(0));
    ws::LiveHub hub;
    hub.start();
    const int gone = connect(hub, "session:gone");
    const int live = connect(hub, "session:live");
    waitAdopted(hub, 2);
    ws::SessionCheck check(hub, store);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), check.run());
    std::string in1, in2;
    const auto frames = await(gone, in1);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), frames.size());
    CPPUNIT_ASSERT_EQUAL(ws::kSessionEndedCloseCode, frames[0].closeCode());
    CPPUNIT_ASSERT(await(live, in2).empty());
    hub.stop();
  }

  void aStoreOutageClosesNothing() {
    test::MemorySharedStore store;
    store.down = true;
    ws::LiveHub hub;
    hub.start();
    const int socket = connect(hub, "session:any");
    waitAdopted(hub, 1);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), ws::SessionCheck(hub, store).run());
    std::string inbox;
    CPPUNIT_ASSERT(await(socket, inbox).empty());
    hub.stop();
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SessionCheckTest);
