#include "access/ReadBudget.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

using skinpulse::access::ReadBudget;

class ReadBudgetTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ReadBudgetTest);
  CPPUNIT_TEST(testLimitPerKeyThenRetryAfter);
  CPPUNIT_TEST(testWindowRenewsAfterAMinute);
  CPPUNIT_TEST(testZeroIsUnlimited);
  CPPUNIT_TEST(testRefusedRequestsAreNotCounted);
  CPPUNIT_TEST(testFloodOfClientsIsBoundedAndStillLimited);
  CPPUNIT_TEST(testConcurrentCountsAreExact);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testLimitPerKeyThenRetryAfter() {
    std::int64_t now = 1'000'000;
    ReadBudget budget(3, [&] { return now; });
    for (int i = 0; i < 3; ++i) CPPUNIT_ASSERT(budget.admit("198.51.100.7").allowed);
    now += 15'500;
    const auto refused = budget.admit("198.51.100.7");
    CPPUNIT_ASSERT(!refused.allowed);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{45}, refused.retry_after_seconds);  // 44.5 s, rounded up
    // Another client has its own budget.
    CPPUNIT_ASSERT(budget.admit("198.51.100.8").allowed);
  }

  void testWindowRenewsAfterAMinute() {
    std::int64_t now = 0;
    ReadBudget budget(2, [&] { return now; });
    CPPUNIT_ASSERT(budget.admit("k").allowed);
    CPPUNIT_ASSERT(budget.admit("k").allowed);
    now = 59'999;
    const auto last = budget.admit("k");
    CPPUNIT_ASSERT(!last.allowed);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, last.retry_after_seconds);
    now = 60'000;
    CPPUNIT_ASSERT(budget.admit("k").allowed);
  }

  void testZeroIsUnlimited() {
    ReadBudget budget(0, [] { return 0; });
    for (int i = 0; i < 10000; ++i) CPPUNIT_ASSERT(budget.admit("k").allowed);
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, budget.size());
  }

  void testRefusedRequestsAreNotCounted() {
    std::int64_t now = 0;
    ReadBudget budget(1, [&] { return now; });
    CPPUNIT_ASSERT(budget.admit("k").allowed);
    for (int i = 0; i < 100; ++i) CPPUNIT_ASSERT(!budget.admit("k").allowed);
    now = 60'000;  // hammering while refused does not push the renewal back
    CPPUNIT_ASSERT(budget.admit("k").allowed);
  }

  void testFloodOfClientsIsBoundedAndStillLimited() {
    std::int64_t now = 0;
    ReadBudget budget(5, [&] { return now; });
    const std::size_t capacity = ReadBudget::kShards * ReadBudget::kMaxKeysPerShard;
    std::size_t refused = 0;
    const auto started = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < capacity * 2; ++i) {
      if (!budget.admit("2001:db8:" + std::to_string(i) + "::/64").allowed) ++refused;
    }
    // A newcomer to a full shard does not buy a scan of it (at most one a second): the
    // flood stays cheap. With a scan each, this took minutes.
    CPPUNIT_ASSERT(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
    CPPUNIT_ASSERT(budget.size() <= capacity);
    // The newcomers past the table share overflow budgets (5 per shard): most are refused.
    CPPUNIT_ASSERT(refused > capacity / 2);
    // A minute later the ended windows make room again.
    now = 60'000;
    CPPUNIT_ASSERT(budget.admit("203.0.113.1").allowed);
    CPPUNIT_ASSERT(budget.size() <= capacity);
  }

  void testConcurrentCountsAreExact() {
    ReadBudget budget(40000, [] { return 0; });
    std::atomic<int> admitted{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 20000; ++i) {
          if (budget.admit(i % 2 ? "a" : "b").allowed) ++admitted;
        }
      });
    }
    for (auto& thread : threads) thread.join();
    CPPUNIT_ASSERT_EQUAL(80000, admitted.load());  // 2 keys × 40000
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ReadBudgetTest);
