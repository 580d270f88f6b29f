#include "http/ClientAddress.hpp"
#include "http/ConnectionLimiter.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace skinpulse::http;

class ConnectionLimiterTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConnectionLimiterTest);
  CPPUNIT_TEST(perAddressCap);
  CPPUNIT_TEST(totalCap);
  CPPUNIT_TEST(slotGivesItsPlaceBackOnce);
  CPPUNIT_TEST(slotOutlivesTheLimiter);
  CPPUNIT_TEST(anIpv6SubnetIsOneClient);
  CPPUNIT_TEST(proxyConnectionsAreChargedToTheirClient);
  CPPUNIT_TEST(rekeyOverTheClientCapIsRefused);
  CPPUNIT_TEST(webSocketsPerClientAreCapped);
  CPPUNIT_TEST(nearTheCapTheHogsOldestIdleConnectionIsEvicted);
  CPPUNIT_TEST(busyConnectionsAndTheNewcomersOwnAreNotEvicted);
  CPPUNIT_TEST_SUITE_END();

 public:
  void perAddressCap() {
    ConnectionLimiter limiter(100, 2);
    auto a = limiter.tryAcquire("10.0.0.1");
    auto b = limiter.tryAcquire("10.0.0.1");
    CPPUNIT_ASSERT(a && b);
    CPPUNIT_ASSERT(!limiter.tryAcquire("10.0.0.1"));
    CPPUNIT_ASSERT(limiter.tryAcquire("10.0.0.2"));  // released at once (temporary)
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), limiter.countOf("10.0.0.1"));
    a.reset();
    CPPUNIT_ASSERT(limiter.tryAcquire("10.0.0.1"));
  }

  void totalCap() {
    ConnectionLimiter limiter(3, 10);
    std::vector<ConnectionSlot> slots;
    for (const char* address : {"a", "b", "c"}) slots.push_back(*limiter.tryAcquire(address));
    CPPUNIT_ASSERT(!limiter.tryAcquire("d"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), limiter.total());
    slots.pop_back();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), limiter.total());
    CPPUNIT_ASSERT(limiter.tryAcquire("d"));
  }

  void slotGivesItsPlaceBackOnce() {
    ConnectionLimiter limiter(10, 10);
    auto slot = *limiter.tryAcquire("a");
    ConnectionSlot moved(std::move(slot));
    CPPUNIT_ASSERT(moved.held());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), limiter.total());
    ConnectionSlot assigned;
    assigned = std::move(moved);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), limiter.total());
    assigned.release();
    assigned.release();
    CPPUNIT_ASSERT(!assigned.held());
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), limiter.total());
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), limiter.countOf("a"));
  }

  void slotOutlivesTheLimiter() {
    ConnectionSlot slot;
    {
      ConnectionLimiter limiter(1, 1);
      slot = *limiter.tryAcquire("a");
    }
    CPPUNIT_ASSERT(slot.held());
    slot.release();  // no crash: the state is shared
  }

  void anIpv6SubnetIsOneClient() {
    // The server keys by rateLimitKey: two addresses of one /64 share one cap.
    ConnectionLimiter limiter(100, 2);
    auto a = limiter.tryAcquire(rateLimitKey("2001:db8:1:2::a"));
    auto b = limiter.tryAcquire(rateLimitKey("2001:db8:1:2:ffff::b"));
    CPPUNIT_ASSERT(a && b);
    CPPUNIT_ASSERT(!limiter.tryAcquire(rateLimitKey("2001:db8:1:2:1:2:3:4")));
    CPPUNIT_ASSERT(limiter.tryAcquire(rateLimitKey("2001:db8:1:3::a")));  // another /64
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), limiter.countOf("2001:db8:1:2::/64"));
  }

  void proxyConnectionsAreChargedToTheirClient() {
    ConnectionLimiter limiter(100, 2);
    std::vector<ConnectionSlot> proxied;
    for (int i = 0; i < 5; ++i) {  // the proxy itself is over the per-client cap
      auto slot = limiter.tryAcquire("10.0.0.1", true);
      CPPUNIT_ASSERT(slot);
      proxied.push_back(std::move(*slot));
    }
    CPPUNIT_ASSERT(!limiter.tryAcquire("10.0.0.1"));  // ... but not a direct connection
    CPPUNIT_ASSERT(proxied[0].rekey("198.51.100.7"));
    CPPUNIT_ASSERT_EQUAL(std::string("198.51.100.7"), proxied[0].key());
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), limiter.countOf("10.0.0.1"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), limiter.countOf("198.51.100.7"));
    // A proxy reusing the connection for another client moves it again.
    CPPUNIT_ASSERT(proxied[0].rekey("198.51.100.8"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), limiter.countOf("198.51.100.7"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), limiter.countOf("198.51.100.8"));
    proxied[0].release();
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), limiter.countOf("198.51.100.8"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), limiter.total());
  }

  void rekeyOverTheClientCapIsRefused() {
    ConnectionLimiter limiter(100, 2);
    std::vector<ConnectionSlot> proxied;
    for (int i = 0; i < 3; ++i) proxied.push_back(*limiter.tryAcquire("10.0.0.1", true));
    CPPUNIT_ASSERT(proxied[0].rekey("198.51.100.7"));
    CPPUNIT_ASSERT(proxied[1].rekey("198.51.100.7"));
    CPPUNIT_ASSERT(!proxied[2].rekey("198.51.100.7"));
    CPPUNIT_ASSERT_EQUAL(std::string("10.0.0.1"), proxied[2].key());  // stays where it was
    CPPUNIT_ASSERT(proxied[2].rekey("198.51.100.9"));                 // another client is served
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), limiter.countOf("198.51.100.7"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), limiter.countOf("10.0.0.1"));
  }

  void webSocketsPerClientAreCapped() {
    ConnectionLimiter limiter(100, 10, 2);
    std::vector<ConnectionSlot> slots;
    for (int i = 0; i < 4; ++i) slots.push_back(*limiter.tryAcquire("a"));
    CPPUNIT_ASSERT(slots[0].handle().claimWebSocket());
    CPPUNIT_ASSERT(slots[0].handle().claimWebSocket());  // idempotent
    CPPUNIT_ASSERT(slots[1].handle().claimWebSocket());
    CPPUNIT_ASSERT(!slots[2].handle().claimWebSocket());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), limiter.websocketsOf("a"));
    auto other = *limiter.tryAcquire("b");
    CPPUNIT_ASSERT(other.handle().claimWebSocket());  // another client has its own share
    slots[0].release();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), limiter.websocketsOf("a"));
    CPPUNIT_ASSERT(slots[2].handle().claimWebSocket());
    CPPUNIT_ASSERT(ConnectionHandle().claimWebSocket());  // no server, no cap
    const auto stale = slots[3].handle();
    slots[3].release();
    CPPUNIT_ASSERT(!stale.claimWebSocket());  // the place is gone
  }

  void nearTheCapTheHogsOldestIdleConnectionIsEvicted() {
    ConnectionLimiter limiter(10, 100);
    std::vector<ConnectionSlot> hog;
    std::vector<int> evicted;
    for (int i = 0; i < 9; ++i) {
      hog.push_back(*limiter.tryAcquire("hog"));
      hog.back().setEvictor([&evicted, i] { evicted.push_back(i); });
    }
    for (const int i : {4, 2, 7}) {  // idle in this order: 4 is the oldest
      hog[static_cast<std::size_t>(i)].setIdle(true);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    auto small = *limiter.tryAcquire("small");  // 10th place: over 90 %, evicts
    CPPUNIT_ASSERT(small.held());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), evicted.size());
    CPPUNIT_ASSERT_EQUAL(4, evicted[0]);
    CPPUNIT_ASSERT_EQUAL(std::size_t(8), limiter.countOf("hog"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(9), limiter.total());
    // A third client at the full cap displaces the next oldest idle one.
    auto third = limiter.tryAcquire("third");
    CPPUNIT_ASSERT(third);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), evicted.size());
    CPPUNIT_ASSERT_EQUAL(2, evicted[1]);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(2), limiter.evictions());
    hog[4].release();  // the evicted slot's own release changes nothing
    CPPUNIT_ASSERT_EQUAL(std::size_t(9), limiter.total());
  }

  void busyConnectionsAndTheNewcomersOwnAreNotEvicted() {
    ConnectionLimiter limiter(10, 100);
    std::vector<ConnectionSlot> hog;
    int evicted = 0;
    for (int i = 0; i < 10; ++i) {
      hog.push_back(*limiter.tryAcquire("hog"));
      hog.back().setEvictor([&evicted] { ++evicted; });
    }
    CPPUNIT_ASSERT(!limiter.tryAcquire("other"));  // all busy: refused
    CPPUNIT_ASSERT(!limiter.tryAcquire("hog"));    // a client never evicts its own
    hog[0].setIdle(true);
    CPPUNIT_ASSERT(!limiter.tryAcquire("hog"));
    CPPUNIT_ASSERT_EQUAL(0, evicted);
    CPPUNIT_ASSERT(hog[0].handle().claimWebSocket());  // a WebSocket is never idle
    CPPUNIT_ASSERT(!limiter.tryAcquire("other"));
    hog[1].setIdle(true);
    CPPUNIT_ASSERT(limiter.tryAcquire("other"));
    CPPUNIT_ASSERT_EQUAL(1, evicted);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConnectionLimiterTest);
