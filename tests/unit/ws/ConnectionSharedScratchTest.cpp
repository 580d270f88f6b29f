// A reactor assembles every client's frames of a cycle in one reused buffer and sends
// them from there (Connection::deliver with a scratch): clients with different
// subscriptions get exactly their own frames, a client the socket cannot take everything
// from keeps its rest intact while the buffer serves the next client, and a client that
// went away mid-write leaves the next one's frames whole.

#include "WsTestSupport.hpp"
#include "ws/Connection.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace skinpulse;
using namespace skinpulse::ws;

namespace {

struct Client {
  int peer = -1;  ///< the browser's end
  std::unique_ptr<Connection> connection;
  std::string inbox;

  Client(const ConnectionLimits& limits, const std::string& subscribe) {
    int fds[2];
    CPPUNIT_ASSERT_EQUAL(0, ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds));
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
    peer = fds[1];
    connection = std::make_unique<Connection>(fds[0], limits, Clock::now());
    connection->receive(wstest::textFrame(subscribe), Clock::now());
    frames();  // the acknowledgement
  }
  ~Client() {
    connection.reset();
    if (peer >= 0) ::close(peer);
  }
  std::vector<wstest::ServerFrame> frames() {
    wstest::drain(peer, inbox);
    return wstest::parseServerFrames(inbox);
  }
  void shrinkBuffers() {
    int small = 4096;
    ::setsockopt(peer, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    ::setsockopt(connection->fd(), SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
  }
};

// `per_item` entries for each of the ids 1..items, each `pad` bytes of filler long.
std::shared_ptr<UpdateFrames> batch(const char* kind, std::int64_t cycle, std::int64_t items,
                                    std::size_t pad = 0) {
  std::vector<events::UpdateEntry> entries;
  for (std::int64_t id = 1; id <= items; ++id) {
    entries.push_back(events::UpdateEntry{id, "{\"item_id\":" + std::to_string(id) +
                                                  ",\"kind\":\"" + kind + "\",\"pad\":\"" +
                                                  std::string(pad, 'x') + "\"}"});
  }
  return std::make_shared<UpdateFrames>(
      std::make_shared<const events::UpdateBatch>(kind, std::move(entries), cycle));
}

// What the frames of `subscription` hold: the exact bytes, built alone.
std::string expectedPayload(const UpdateFrames& update, const std::string& subscribe) {
  Subscription subscription;
  subscription.subscribe(parseClientMessage(subscribe));
  std::string framed;
  update.appendFramesFor(subscription, framed);
  return wstest::parseServerFrames(framed).at(0).payload;
}

}  // namespace

class ConnectionSharedScratchTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConnectionSharedScratchTest);
  CPPUNIT_TEST(clientsWithDifferentSubscriptionsGetExactlyTheirFrames);
  CPPUNIT_TEST(aSlowClientKeepsItsRestWhileOthersGetTheirs);
  CPPUNIT_TEST(aClientGoneMidWriteLeavesTheNextOneWhole);
  CPPUNIT_TEST_SUITE_END();

 public:
  void clientsWithDifferentSubscriptionsGetExactlyTheirFrames() {
    const std::string first_ids = R"({"type":"subscribe","items":[1,2]})";
    const std::string second_ids = R"({"type":"subscribe","items":[3]})";
    Client first(limits_, first_ids), second(limits_, second_ids);
    const auto prices = batch("prices", 1, 5);
    const auto volatility = batch("volatility", 1, 5);
    const std::vector<UpdateFrames*> cycle{prices.get(), volatility.get()};
    std::string scratch;
    first.connection->deliver(cycle, scratch);
    second.connection->deliver(cycle, scratch);
    const auto a = first.frames(), b = second.frames();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), a.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), b.size());
    CPPUNIT_ASSERT_EQUAL(expectedPayload(*prices, first_ids), a[0].payload);
    CPPUNIT_ASSERT_EQUAL(expectedPayload(*volatility, first_ids), a[1].payload);
    CPPUNIT_ASSERT_EQUAL(expectedPayload(*prices, second_ids), b[0].payload);
    CPPUNIT_ASSERT_EQUAL(expectedPayload(*volatility, second_ids), b[1].payload);
    CPPUNIT_ASSERT(a[0].payload.find("\"item_id\":3,") == std::string::npos);
    CPPUNIT_ASSERT(b[0].payload.find("\"item_id\":1,") == std::string::npos);
    // Nothing was left queued: each went out in the one write.
    CPPUNIT_ASSERT(!first.connection->wantsWrite());
    CPPUNIT_ASSERT(!second.connection->wantsWrite());
  }

  void aSlowClientKeepsItsRestWhileOthersGetTheirs() {
    const std::string ids = R"({"type":"subscribe","items":[1,2,3,4,5,6,7,8,9,10]})";
    Client slow(limits_, ids), quick(limits_, ids);
    slow.shrinkBuffers();
    // ~200 KiB of frames: far more than the slow socket takes at once.
    const auto prices = batch("prices", 1, 10, 20 * 1024);
    std::string scratch;
    slow.connection->deliver({prices.get()}, scratch);
    CPPUNIT_ASSERT(slow.connection->wantsWrite());
    // The next client is served from the same buffer at once, whatever the slow one holds.
    const auto other = batch("prices", 1, 10, 1);
    quick.connection->deliver({other.get()}, scratch);
    const auto got = quick.frames();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), got.size());
    CPPUNIT_ASSERT_EQUAL(expectedPayload(*other, ids), got[0].payload);
    // The slow reader then gets its frame whole, not the buffer's later contents.
    std::vector<wstest::ServerFrame> slow_frames;
    for (int i = 0; i < 10000 && slow_frames.empty(); ++i) {
      slow_frames = slow.frames();
      slow.connection->flush();
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), slow_frames.size());
    CPPUNIT_ASSERT_EQUAL(expectedPayload(*prices, ids), slow_frames[0].payload);
    CPPUNIT_ASSERT(slow.inbox.empty());
  }

  void aClientGoneMidWriteLeavesTheNextOneWhole() {
    const std::string ids = R"({"type":"subscribe","items":[2,4]})";
    Client gone(limits_, ids), next(limits_, ids);
    ::close(gone.peer);  // the browser went away
    gone.peer = -1;
    const auto prices = batch("prices", 1, 5, 100);
    std::string scratch;
    gone.connection->deliver({prices.get()}, scratch);
    CPPUNIT_ASSERT(gone.connection->done());
    next.connection->deliver({prices.get()}, scratch);
    const auto got = next.frames();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), got.size());
    CPPUNIT_ASSERT_EQUAL(expectedPayload(*prices, ids), got[0].payload);
    CPPUNIT_ASSERT(next.inbox.empty());
  }

 private:
  ConnectionLimits limits_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConnectionSharedScratchTest);
