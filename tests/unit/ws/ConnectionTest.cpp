#include "WsTestSupport.hpp"
#include "ws/Connection.hpp"
#include "ws/LiveUpdates.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace skinpulse;
using namespace skinpulse::ws;

// A Connection on one end of a socketpair; the test plays the browser on the other.
class ConnectionTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConnectionTest);
  CPPUNIT_TEST(subscribeIsAcknowledgedWithTheWholeSet);
  CPPUNIT_TEST(pingsAreAnswered);
  CPPUNIT_TEST(malformedMessagesGetAnErrorAndTheConnectionStays);
  CPPUNIT_TEST(tooManyIdsClosesWith1008);
  CPPUNIT_TEST(oversizedFrameClosesWith1009AfterTheHandshake);
  CPPUNIT_TEST(closeHandshakeGivesUpAfterTheWait);
  CPPUNIT_TEST(clientCloseIsEchoed);
  CPPUNIT_TEST(slowReaderIsClosedWith1013);
  CPPUNIT_TEST(aCycleBiggerThanTheLimitReachesAReaderThatKeepsUp);
  CPPUNIT_TEST(serverPingsAndDropsSilentClients);
  CPPUNIT_TEST(anEndedSessionClosesWith4001BeforeQueuedMessages);
  CPPUNIT_TEST(anExpiredSessionClosesWithoutARequest);
  CPPUNIT_TEST(anAnonymousConnectionHasNoSessionToEnd);
  CPPUNIT_TEST(aCyclesBatchesArriveInOrderSplitAtAThousandEntries);
  CPPUNIT_TEST(theBoundCountsEarlierCyclesDeliveredTogether);
  CPPUNIT_TEST_SUITE_END();

  ConnectionLimits limits_;
  int client_ = -1;
  std::unique_ptr<Connection> connection_;
  std::string inbox_;
  Clock::time_point now_;

  void open() {
    int fds[2];
    CPPUNIT_ASSERT_EQUAL(0, ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds));
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
    client_ = fds[1];
    now_ = Clock::now();
    connection_ = std::make_unique<Connection>(fds[0], limits_, now_);
  }

  void send(const std::string& bytes) { connection_->receive(bytes, now_); }

  std::vector<wstest::ServerFrame> frames() {
    wstest::drain(client_, inbox_);
    return wstest::parseServerFrames(inbox_);
  }

  std::string onlyText() {
    const auto got = frames();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), got.size());
    CPPUNIT_ASSERT_EQUAL(std::uint8_t(0x1), got[0].opcode);
    return got[0].payload;
  }

  std::uint16_t closeCode() {
    const auto got = frames();
    CPPUNIT_ASSERT(!got.empty());
    CPPUNIT_ASSERT_EQUAL(std::uint8_t(0x8), got.back().opcode);
    return got.back().closeCode();
  }

  // A batch of `kind` for `cycle`: `sources` entries for each of the ids 1..items.
  static std::shared_ptr<UpdateFrames> batch(const char* kind, std::int64_t cycle,
                                             std::int64_t items, int sources, std::size_t pad = 0) {
    std::vector<events::UpdateEntry> entries;
    for (std::int64_t id = 1; id <= items; ++id) {
      for (int s = 0; s < sources; ++s) {
        entries.push_back(events::UpdateEntry{
            id, "{\"item_id\":" + std::to_string(id) + ",\"s\":" + std::to_string(s) +
                    ",\"pad\":\"" + std::string(pad, 'x') + "\"}"});
      }
    }
    return std::make_shared<UpdateFrames>(
        std::make_shared<const events::UpdateBatch>(kind, std::move(entries), cycle));
  }

  std::shared_ptr<UpdateFrames> update(std::int64_t items, std::size_t json_bytes = 0) {
    std::vector<events::UpdateEntry> entries;
    for (std::int64_t id = 1; id <= items; ++id) {
      auto json = LiveUpdates::renderPrice(store::PricePoint{id, "s", 1795000000, id, 1});
      if (json_bytes > json.size())
        json.insert(1, "\"pad\":\"" + std::string(json_bytes - json.size() - 9, 'x') + "\",");
      entries.push_back(events::UpdateEntry{id, std::move(json)});
    }
    return std::make_shared<UpdateFrames>(
        std::make_shared<const events::UpdateBatch>("prices", std::move(entries)));
  }

 public:
  void setUp() override {
    limits_ = ConnectionLimits();
    inbox_.clear();
  }
  void tearDown() override {
    connection_.reset();
    if (client_ >= 0) ::close(client_);
    client_ = -1;
  }

  void subscribeIsAcknowledgedWithTheWholeSet() {
    open();
    send(wstest::textFrame(R"({"type":"subscribe","items":[2,1]})"));
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"subscribed","items":[1,2]})"), onlyText());
    send(wstest::textFrame(R"({"type":"subscribe","items":[3]})"));
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"subscribed","items":[1,2,3]})"), onlyText());
    send(wstest::textFrame(R"({"type":"unsubscribe","items":[2]})"));
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"subscribed","items":[1,3]})"), onlyText());
    connection_->deliver(*update(5));
    connection_->flush();
    const auto text = onlyText();
    CPPUNIT_ASSERT(text.find("\"item_id\":1,") != std::string::npos);
    CPPUNIT_ASSERT(text.find("\"item_id\":3,") != std::string::npos);
    CPPUNIT_ASSERT(text.find("\"item_id\":2,") == std::string::npos);
    CPPUNIT_ASSERT(!connection_->done());
  }

  void pingsAreAnswered() {
    open();
    send(wstest::textFrame(R"({"type":"ping"})"));
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"pong"})"), onlyText());
    send(wstest::clientFrame(0x89, "abc"));  // protocol-level ping
    const auto got = frames();
    CPPUNIT_ASSERT_EQUAL(std::uint8_t(0xA), got.at(0).opcode);
    CPPUNIT_ASSERT_EQUAL(std::string("abc"), got[0].payload);
  }

  void malformedMessagesGetAnErrorAndTheConnectionStays() {
    open();
    for (const char* text :
         {"{oops", R"({"type":"dance"})", R"({"type":"subscribe","items":[0]})"}) {
      send(wstest::textFrame(text));
      CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"error","code":"invalid_message"})"), onlyText());
    }
    send(wstest::clientFrame(0x82, "binary"));
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"error","code":"invalid_message"})"), onlyText());
    send(wstest::textFrame(R"({"type":"ping"})"));
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"pong"})"), onlyText());
    CPPUNIT_ASSERT(!connection_->done());
  }

  void tooManyIdsClosesWith1008() {
    open();
    std::string ids;
    for (int i = 1; i <= 1001; ++i) ids += (i > 1 ? "," : "") + std::to_string(i);
    send(wstest::textFrame(R"({"type":"subscribe","items":[)" + ids + "]}"));
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(1008), closeCode());
    CPPUNIT_ASSERT(!connection_->done());  // waits for the client's close frame
    send(wstest::closeFrame(1008));
    CPPUNIT_ASSERT(connection_->done());
  }

  void oversizedFrameClosesWith1009AfterTheHandshake() {
    open();
    send(wstest::textFrame(std::string(4097, ' ')));
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(1009), closeCode());
    CPPUNIT_ASSERT(!connection_->done());
    connection_->tick(now_ + std::chrono::milliseconds(500));
    CPPUNIT_ASSERT(!connection_->done());
  }

  void closeHandshakeGivesUpAfterTheWait() {
    open();
    send(wstest::clientFrame(0x81, "x", false));  // unmasked
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(1002), closeCode());
    connection_->tick(Clock::now() + std::chrono::milliseconds(1100));
    CPPUNIT_ASSERT(connection_->done());
  }

  void clientCloseIsEchoed() {
    open();
    send(wstest::closeFrame(1000));
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(1000), closeCode());
    CPPUNIT_ASSERT(connection_->done());
  }

  void slowReaderIsClosedWith1013() {
    open();
    int small = 4096;
    ::setsockopt(client_, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    ::setsockopt(connection_->fd(), SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    send(wstest::textFrame(R"({"type":"subscribe","items":"*"})"));
    CPPUNIT_ASSERT(frames().size() == 1);
    // 100 entries of ~1 KiB per update: the queue passes 1 MiB within a few updates.
    int delivered = 0;
    while (connection_->sentCloseCode() == 0 && delivered < 100) {
      connection_->deliver(*update(100, 1024));
      connection_->flush();
      ++delivered;
      // Never more than the limit plus one update (~110 KiB here).
      CPPUNIT_ASSERT(connection_->queuedBytes() <= limits_.max_queued_bytes + 120 * 1024);
    }
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(1013), connection_->sentCloseCode());
    CPPUNIT_ASSERT(delivered > 5);
    // Queued updates were dropped: at most the partly written frame and the close remain.
    CPPUNIT_ASSERT(connection_->queuedBytes() < 110 * 1024);
    // The reader catches up: the close frame arrives after the frames already in flight.
    for (int i = 0; i < 1000 && connection_->wantsWrite(); ++i) {
      wstest::drain(client_, inbox_);
      connection_->flush();
    }
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(1013), closeCode());
  }

  void aCycleBiggerThanTheLimitReachesAReaderThatKeepsUp() {
    open();
    send(wstest::textFrame(R"({"type":"subscribe","items":"*"})"));
    frames();
    for (int cycle = 1; cycle <= 3; ++cycle) {
      // Two batches of one cycle, 1.5 MiB together.
      for (const char* kind : {"prices", "volatility"}) {
        std::vector<events::UpdateEntry> entries;
        for (std::int64_t id = 1; id <= 750; ++id) {
          entries.push_back(
              events::UpdateEntry{id, "{\"pad\":\"" + std::string(1024, 'x') + "\"}"});
        }
        UpdateFrames update(
            std::make_shared<const events::UpdateBatch>(kind, std::move(entries), cycle));
        connection_->deliver(update);
        connection_->flush();
      }
      std::size_t received = 0;
      for (int i = 0; i < 10000 && (connection_->wantsWrite() || received < 2); ++i) {
        for (const auto& frame : frames()) {
          CPPUNIT_ASSERT_EQUAL(std::uint8_t(0x1), frame.opcode);
          ++received;
        }
        connection_->flush();
      }
      CPPUNIT_ASSERT_EQUAL(std::size_t(2), received);
    }
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(0), connection_->sentCloseCode());
  }

  void serverPingsAndDropsSilentClients() {
    limits_.ping_interval = std::chrono::seconds(30);
    limits_.idle_timeout = std::chrono::seconds(90);
    open();
    connection_->tick(now_ + std::chrono::seconds(29));
    CPPUNIT_ASSERT(frames().empty());
    connection_->tick(now_ + std::chrono::seconds(30));
    const auto got = frames();
    CPPUNIT_ASSERT_EQUAL(std::uint8_t(0x9), got.at(0).opcode);
    connection_->tick(now_ + std::chrono::seconds(89));
    CPPUNIT_ASSERT(!connection_->done());
    connection_->tick(now_ + std::chrono::seconds(91));
    CPPUNIT_ASSERT(connection_->done());
  }

  // issue 31: a signed-in socket outlived its session's logout.
  void anEndedSessionClosesWith4001BeforeQueuedMessages() {
    open();
    connection_->setUserId("user-1");
    connection_->setSession("session:abc", now_ + std::chrono::hours(72));
    connection_->sendMessage(R"({"type":"alert","n":1})");
    connection_->flush();
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"alert","n":1})"), onlyText());
    connection_->endSession(now_);
    connection_->sendMessage(R"({"type":"alert","n":2})");  // after the end: dropped
    connection_->flush();
    const auto got = frames();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), got.size());
    CPPUNIT_ASSERT_EQUAL(std::uint8_t(0x8), got[0].opcode);
    CPPUNIT_ASSERT_EQUAL(kSessionEndedCloseCode, got[0].closeCode());
    send(wstest::closeFrame(kSessionEndedCloseCode));
    CPPUNIT_ASSERT(connection_->done());
  }

  void anExpiredSessionClosesWithoutARequest() {
    open();
    connection_->setUserId("user-1");
    connection_->setSession("session:abc", now_ + std::chrono::seconds(10));
    connection_->tick(now_ + std::chrono::seconds(9));
    CPPUNIT_ASSERT(frames().empty());
    connection_->tick(now_ + std::chrono::seconds(10));
    CPPUNIT_ASSERT_EQUAL(kSessionEndedCloseCode, closeCode());
    connection_->sendMessage(R"({"type":"alert"})");
    connection_->flush();
    CPPUNIT_ASSERT(frames().empty());
  }

  void anAnonymousConnectionHasNoSessionToEnd() {
    open();
    connection_->endSession(now_);
    connection_->tick(now_ + std::chrono::seconds(1));
    CPPUNIT_ASSERT(frames().empty());
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(0), connection_->sentCloseCode());
  }

  void aCyclesBatchesArriveInOrderSplitAtAThousandEntries() {
    open();
    std::string ids;
    for (int id = 1; id <= 600; ++id) ids += (id > 1 ? "," : "") + std::to_string(id);
    send(wstest::textFrame(R"({"type":"subscribe","items":[)" + ids + "]}"));
    frames();
    const auto prices = batch("prices", 7, 700, 2);  // 1,200 subscribed entries
    const auto volatility = batch("volatility", 7, 700, 1);
    connection_->deliver(std::vector<UpdateFrames*>{prices.get(), volatility.get()});
    connection_->flush();
    const auto got = frames();
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), got.size());
    const auto count = [](const std::string& payload) {
      std::size_t n = 0;
      for (auto at = payload.find("item_id"); at != std::string::npos;
           at = payload.find("item_id", at + 1)) {
        ++n;
      }
      return n;
    };
    CPPUNIT_ASSERT(got[0].payload.rfind(R"({"type":"prices","data":[{"item_id":1,"s":0)", 0) == 0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1000), count(got[0].payload));
    CPPUNIT_ASSERT(got[1].payload.rfind(R"({"type":"prices","data":[{"item_id":501,"s":0)", 0) ==
                   0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(200), count(got[1].payload));
    CPPUNIT_ASSERT(got[2].payload.rfind(R"({"type":"volatility","data":[{"item_id":1,)", 0) == 0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(600), count(got[2].payload));
    CPPUNIT_ASSERT(got[2].payload.find(R"("item_id":601,)") == std::string::npos);
  }

  void theBoundCountsEarlierCyclesDeliveredTogether() {
    // A reactor that fell behind hands a client two cycles at once: the first cycle's
    // frames count against the bound when the second arrives, as if delivered apart.
    open();
    int small = 4096;
    ::setsockopt(client_, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    ::setsockopt(connection_->fd(), SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    send(wstest::textFrame(R"({"type":"subscribe","items":[1,2,3,4,5,6,7,8,9,10]})"));
    frames();
    // 20 entries of ~64 KiB: 1.25 MiB a cycle, more than the 1 MiB bound.
    const auto first = batch("prices", 1, 10, 2, 64 * 1024);
    const auto second = batch("prices", 2, 10, 2, 64 * 1024);
    connection_->deliver(std::vector<UpdateFrames*>{first.get(), second.get()});
    CPPUNIT_ASSERT_EQUAL(std::uint16_t(1013), connection_->sentCloseCode());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConnectionTest);
