#include "http/ConnectionLimiter.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <vector>

using namespace skinpulse::http;

class ConnectionLimiterTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConnectionLimiterTest);
  CPPUNIT_TEST(perAddressCap);
  CPPUNIT_TEST(totalCap);
  CPPUNIT_TEST(slotGivesItsPlaceBackOnce);
  CPPUNIT_TEST(slotOutlivesTheLimiter);
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
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConnectionLimiterTest);
