#include "WsTestSupport.hpp"
#include "common/Time.hpp"
#include "events/InProcessEventBus.hpp"
#include "ws/LiveHub.hpp"
#include "ws/LiveUpdates.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <arpa/inet.h>
#include <fstream>
#include <mutex>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace skinpulse;
using namespace std::chrono_literals;

namespace {

int threadCount() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

// Reads from `fd` until `count` frames arrived or two seconds passed.
std::vector<wstest::ServerFrame> await(int fd, std::string& inbox, std::size_t count) {
  std::vector<wstest::ServerFrame> frames;
  const auto deadline = std::chrono::steady_clock::now() + 2s;
  while (frames.size() < count && std::chrono::steady_clock::now() < deadline) {
    wstest::drain(fd, inbox);
    for (auto& frame : wstest::parseServerFrames(inbox)) frames.push_back(std::move(frame));
    std::this_thread::sleep_for(2ms);
  }
  return frames;
}

}  // namespace

class LiveHubTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LiveHubTest);
  CPPUNIT_TEST(cycleReachesOnlySubscribedClients);
  CPPUNIT_TEST(threadsDoNotGrowWithClients);
  CPPUNIT_TEST(aFollowedBatchWaitsForTheRestOfItsCycle);
  CPPUNIT_TEST(aFollowedBatchWithoutItsFollowerGoesAtTheNextTimerRun);
  CPPUNIT_TEST(noWakeUpIsLostUnderConcurrentPublishers);
  CPPUNIT_TEST(theKernelSendBufferIsBounded);
  CPPUNIT_TEST(theHubReportsThePricesFanout);
  CPPUNIT_TEST(anEndedSessionClosesOnlyItsOwnSockets);
  CPPUNIT_TEST(aSocketAdoptedJustAfterItsSessionEndedIsClosedToo);
  CPPUNIT_TEST_SUITE_END();

  std::vector<int> clients_;

  int connect(ws::LiveHub& hub, const std::string& early) {
    int fds[2];
    CPPUNIT_ASSERT_EQUAL(0, ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds));
    hub.adopt(fds[0], early);
    clients_.push_back(fds[1]);
    return fds[1];
  }

  int connectSignedIn(ws::LiveHub& hub, const std::string& user, const std::string& session) {
    int fds[2];
    CPPUNIT_ASSERT_EQUAL(0, ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds));
    hub.adopt(fds[0], "", {}, user, session, time::nowSeconds() + 3600);
    clients_.push_back(fds[1]);
    return fds[1];
  }

 public:
  void tearDown() override {
    for (const int fd : clients_) ::close(fd);
    clients_.clear();
  }

  void cycleReachesOnlySubscribedClients() {
    ws::LiveHub hub;
    hub.start();
    events::InProcessEventBus bus;
    bus.subscribe([&hub](const events::UpdateBatchPtr& batch) { hub.publish(batch); });
    ws::LiveUpdates live(bus, [](std::int64_t id) -> std::optional<std::string> {
      if (id == 2) return std::nullopt;
      return R"({"item_id":)" + std::to_string(id) + R"(,"window":"24h"})";
    });
    // The subscription arrives with the handshake's trailing bytes.
    const int one = connect(hub, wstest::textFrame(R"({"type":"subscribe","items":[1,2]})"));
    const int star = connect(hub, wstest::textFrame(R"({"type":"subscribe","items":"*"})"));
    const int none = connect(hub, "");
    std::string in1, in2, in3;
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), await(one, in1, 1).size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), await(star, in2, 1).size());

    std::vector<store::PricePoint> points{
        {1, "a", 1795000000, 100, 1}, {2, "a", 1795000000, 200, 2}, {3, "b", 1795000000, 300, 3}};
    live.onCycle(ingest::CycleUpdate{1795000000, points});
    auto frames = await(one, in1, 2);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), frames.size());
    CPPUNIT_ASSERT(frames[0].payload.rfind(R"({"type":"prices","data":[{"item_id":1,)", 0) == 0);
    CPPUNIT_ASSERT(frames[0].payload.find(R"("item_id":2,)") != std::string::npos);
    CPPUNIT_ASSERT(frames[0].payload.find(R"("item_id":3,)") == std::string::npos);
    CPPUNIT_ASSERT_EQUAL(
        std::string(R"({"type":"volatility","data":[{"item_id":1,"window":"24h"}]})"),
        frames[1].payload);
    frames = await(star, in2, 2);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), frames.size());
    CPPUNIT_ASSERT(frames[0].payload.find(R"("item_id":3,)") != std::string::npos);
    CPPUNIT_ASSERT(frames[1].payload.find(R"({"item_id":3,"window":"24h"})") != std::string::npos);
    CPPUNIT_ASSERT(await(none, in3, 1).empty());

    hub.stop();  // every client is told the server goes away
    frames = await(one, in1, 1);
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(1001), frames.at(0).closeCode());
  }

  // issue 31: logout (one session of a user) closes that session's sockets, on the
  // session event of the bus, and leaves the user's other sessions and anonymous
  // sockets alone.
  void anEndedSessionClosesOnlyItsOwnSockets() {
    ws::LiveHub hub;
    hub.start();
    events::InProcessEventBus bus;
    bus.subscribeSessionEnds([&hub](const std::string& key) { hub.endSession(key); });
    const int leaving = connectSignedIn(hub, "user-1", "session:one");
    const int staying = connectSignedIn(hub, "user-1", "session:two");
    const int anonymous = connect(hub, "");
    // Both signed in: an alert reaches both.
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), hub.sendToUser("user-1", R"({"type":"alert"})"));
    std::string in1, in2, in3;
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), await(leaving, in1, 1).size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), await(staying, in2, 1).size());

    bus.publishSessionEnd("session:one");
    hub.sendToUser("user-1", R"({"type":"alert","after":"logout"})");
    auto frames = await(leaving, in1, 2);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), frames.size());  // the close, no alert
    CPPUNIT_ASSERT_EQUAL(std::uint8_t(0x8), frames[0].opcode);
    CPPUNIT_ASSERT_EQUAL(ws::kSessionEndedCloseCode, frames[0].closeCode());
    frames = await(staying, in2, 1);
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"alert","after":"logout"})"), frames.at(0).payload);
    CPPUNIT_ASSERT(await(anonymous, in3, 1).empty());
    hub.stop();
  }

  // The handshake loaded its session just before the logout; the socket reaches the
  // reactor just after the end went by.
  void aSocketAdoptedJustAfterItsSessionEndedIsClosedToo() {
    ws::LiveHub hub;
    hub.start();
    hub.endSession("session:late");
    std::this_thread::sleep_for(50ms);  // the end is taken before the socket arrives
    const int late = connectSignedIn(hub, "user-1", "session:late");
    const int other = connectSignedIn(hub, "user-1", "session:other");
    std::string in1, in2;
    const auto frames = await(late, in1, 1);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), frames.size());
    CPPUNIT_ASSERT_EQUAL(ws::kSessionEndedCloseCode, frames[0].closeCode());
    CPPUNIT_ASSERT(await(other, in2, 1).empty());
    hub.stop();
  }

  void threadsDoNotGrowWithClients() {
    ws::LiveHub hub(ws::HubOptions{2, {}});
    hub.start();
    const int before = threadCount();
    for (int i = 0; i < 300; ++i) connect(hub, "");
    const auto deadline = std::chrono::steady_clock::now() + 2s;
    while (hub.connectionCount() < 300 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(5ms);
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(300), hub.connectionCount());
    CPPUNIT_ASSERT_EQUAL(before, threadCount());
    hub.stop();
  }

  // Fan-out (ADR 0021): once every reactor handed the cycle's prices batch to its
  // clients' sockets, the hub tells its timings observer, with only `fanout` measured.
  void theHubReportsThePricesFanout() {
    struct Timings final : ingest::CycleTimingsObserver {
      std::mutex mutex;
      std::vector<ingest::CycleTimings> seen;
      void onCycleTimings(const ingest::CycleTimings& timings) override {
        std::lock_guard lock(mutex);
        seen.push_back(timings);
      }
    } timings;
    ws::LiveHub hub(ws::HubOptions{2, {}});
    hub.setTimingsObserver(&timings);
    hub.start();
    events::InProcessEventBus bus;
    bus.subscribe([&hub](const events::UpdateBatchPtr& batch) { hub.publish(batch); });
    ws::LiveUpdates live(bus, [](std::int64_t id) -> std::optional<std::string> {
      return R"({"item_id":)" + std::to_string(id) + R"(,"window":"24h"})";
    });
    const int client = connect(hub, wstest::textFrame(R"({"type":"subscribe","items":[1,3]})"));
    std::string inbox;
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), await(client, inbox, 1).size());  // subscribed

    const std::vector<store::PricePoint> points{
        {1, "a", 1795000000, 100, 1}, {2, "a", 1795000000, 200, 2}, {3, "b", 1795000000, 300, 3}};
    live.onCycle(ingest::CycleUpdate{1795000000, points});
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), await(client, inbox, 2).size());
    const auto deadline = std::chrono::steady_clock::now() + 2s;
    for (;;) {
      {
        std::lock_guard lock(timings.mutex);
        if (!timings.seen.empty() || std::chrono::steady_clock::now() > deadline) break;
      }
      std::this_thread::sleep_for(2ms);
    }
    hub.stop();
    std::lock_guard lock(timings.mutex);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), timings.seen.size());  // prices only, not volatility
    const auto& seen = timings.seen[0];
    CPPUNIT_ASSERT(seen.measured[static_cast<std::size_t>(ingest::CycleStage::kFanout)]);
    CPPUNIT_ASSERT(!seen.measured[static_cast<std::size_t>(ingest::CycleStage::kStore)]);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), seen.points);
  }

  static events::UpdateBatchPtr batch(const char* kind, bool followed) {
    auto made = std::make_shared<events::UpdateBatch>(
        kind, std::vector<events::UpdateEntry>{{1, R"({"item_id":1})"}}, 1795000000);
    made->setFollowed(followed);
    return made;
  }

  void aFollowedBatchWaitsForTheRestOfItsCycle() {
    // Prices then volatility: a reactor woken by the prices alone would make a pass over
    // its clients (one system call each) for half a cycle, then another for the rest.
    ws::HubOptions options;
    options.threads = 1;
    options.limits.timer_interval = std::chrono::hours(1);  // no timer run in this test
    ws::LiveHub hub(options);
    hub.start();
    const int client = connect(hub, wstest::textFrame(R"({"type":"subscribe","items":[1]})"));
    std::string inbox;
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), await(client, inbox, 1).size());
    hub.publish(batch("prices", true));
    std::this_thread::sleep_for(100ms);
    wstest::drain(client, inbox);
    CPPUNIT_ASSERT_EQUAL(std::string(), inbox);
    hub.publish(batch("volatility", false));
    const auto frames = await(client, inbox, 2);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), frames.size());
    CPPUNIT_ASSERT(frames[0].payload.rfind(R"({"type":"prices",)", 0) == 0);
    CPPUNIT_ASSERT(frames[1].payload.rfind(R"({"type":"volatility",)", 0) == 0);
    hub.stop();
  }

  void aFollowedBatchWithoutItsFollowerGoesAtTheNextTimerRun() {
    ws::HubOptions options;
    options.threads = 1;
    options.limits.timer_interval = 50ms;
    ws::LiveHub hub(options);
    hub.start();
    const int client = connect(hub, wstest::textFrame(R"({"type":"subscribe","items":[1]})"));
    std::string inbox;
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), await(client, inbox, 1).size());
    hub.publish(batch("prices", true));  // the publisher never sends the rest
    const auto frames = await(client, inbox, 1);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), frames.size());
    CPPUNIT_ASSERT(frames[0].payload.rfind(R"({"type":"prices",)", 0) == 0);
    hub.stop();
  }

  void noWakeUpIsLostUnderConcurrentPublishers() {
    // Without timer runs only the eventfd wake-ups hand batches over: a wake-up lost
    // between a publisher's post and the reactor's drain would leave batches behind.
    ws::HubOptions options;
    options.threads = 2;
    options.limits.timer_interval = std::chrono::hours(1);
    ws::LiveHub hub(options);
    hub.start();
    const int client = connect(hub, wstest::textFrame(R"({"type":"subscribe","items":[1]})"));
    std::string inbox;
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), await(client, inbox, 1).size());
    constexpr int kPerPublisher = 500;
    std::vector<std::thread> publishers;
    for (int p = 0; p < 3; ++p) {
      publishers.emplace_back([&hub] {
        for (int i = 0; i < kPerPublisher; ++i) hub.publish(batch("prices", false));
      });
    }
    for (auto& publisher : publishers) publisher.join();
    std::size_t received = 0;
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (received < 3 * kPerPublisher && std::chrono::steady_clock::now() < deadline) {
      wstest::drain(client, inbox);
      received += wstest::parseServerFrames(inbox).size();
      std::this_thread::sleep_for(1ms);
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(3 * kPerPublisher), received);
    hub.stop();
  }

  void theKernelSendBufferIsBounded() {
    // A TCP socket's send buffer grows by autotuning (to 4 MiB by default) unless set.
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    CPPUNIT_ASSERT_EQUAL(0, ::bind(listener, reinterpret_cast<sockaddr*>(&address), length));
    CPPUNIT_ASSERT_EQUAL(0, ::listen(listener, 1));
    CPPUNIT_ASSERT_EQUAL(0,
                         ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length));
    const int client = ::socket(AF_INET, SOCK_STREAM, 0);
    clients_.push_back(client);
    CPPUNIT_ASSERT_EQUAL(0, ::connect(client, reinterpret_cast<sockaddr*>(&address), length));
    const int server_side = ::accept(listener, nullptr, nullptr);
    ::close(listener);
    CPPUNIT_ASSERT(server_side >= 0);

    ws::HubOptions options;
    options.limits.socket_send_buffer = 64 * 1024;
    ws::LiveHub hub(options);
    hub.start();
    hub.adopt(server_side, "");  // sets the options on the caller's thread
    int size = 0;
    socklen_t size_length = sizeof size;
    CPPUNIT_ASSERT_EQUAL(0, ::getsockopt(server_side, SOL_SOCKET, SO_SNDBUF, &size, &size_length));
    // Linux doubles the value set (for its bookkeeping) and locks it against autotuning.
    CPPUNIT_ASSERT_EQUAL(2 * 64 * 1024, size);
    hub.stop();
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LiveHubTest);
