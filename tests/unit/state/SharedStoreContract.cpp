#include "SharedStoreContract.hpp"

#include "common/Time.hpp"

#include <atomic>
#include <iostream>
#include <random>
#include <thread>
#include <vector>

namespace skinpulse::test {
namespace {

using namespace std::chrono_literals;
using state::Ttl;

void pause(std::chrono::milliseconds duration) { std::this_thread::sleep_for(duration); }

// Runs `body(i)` on `threads` threads started together.
template <typename Body>
void race(int threads, Body body) {
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] {
      while (!go.load()) std::this_thread::yield();
      body(i);
    });
  }
  go = true;
  for (auto& thread : pool) thread.join();
}

}  // namespace

void SharedStoreContract::setUp() {
  std::random_device random;
  prefix_ = "test:" + std::to_string(random()) + ":";
  store_ = makeStore();
  if (skipped()) std::cout << " (skipped: " << skipReason() << ")";
}

void SharedStoreContract::tearDown() {
  store_.reset();
  cleanUp();
}

void SharedStoreContract::testGetSetOverwriteRemove() {
  if (skipped()) return;
  CPPUNIT_ASSERT(store_->ping());
  CPPUNIT_ASSERT(!store_->get(key("a")));
  store_->set(key("a"), "one", 0ms);
  CPPUNIT_ASSERT_EQUAL(std::string("one"), store_->get(key("a")).value());
  store_->set(key("a"), "two {\"json\": [1,2]} ,;'", 0ms);
  CPPUNIT_ASSERT_EQUAL(std::string("two {\"json\": [1,2]} ,;'"), store_->get(key("a")).value());
  CPPUNIT_ASSERT(store_->remove(key("a")));
  CPPUNIT_ASSERT(!store_->remove(key("a")));
  CPPUNIT_ASSERT(!store_->get(key("a")));
}

void SharedStoreContract::testTtlExpiresAndZeroNeverExpires() {
  if (skipped()) return;
  store_->set(key("short"), "v", 300ms);
  store_->set(key("forever"), "v", 0ms);
  const auto left = store_->ttlLeft(key("short"));
  CPPUNIT_ASSERT(left && *left > 0 && *left <= 300);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, store_->ttlLeft(key("forever")).value());
  CPPUNIT_ASSERT(!store_->ttlLeft(key("absent")));
  pause(450ms);
  CPPUNIT_ASSERT(!store_->get(key("short")));
  CPPUNIT_ASSERT(!store_->ttlLeft(key("short")));
  CPPUNIT_ASSERT(!store_->take(key("short")));
  CPPUNIT_ASSERT(!store_->remove(key("short")));  // expired counts as absent
  CPPUNIT_ASSERT(store_->get(key("forever")));
}

void SharedStoreContract::testSetIfAbsentOnlyOnce() {
  if (skipped()) return;
  CPPUNIT_ASSERT(store_->setIfAbsent(key("lock"), "first", 10s));
  CPPUNIT_ASSERT(!store_->setIfAbsent(key("lock"), "second", 10s));
  CPPUNIT_ASSERT_EQUAL(std::string("first"), store_->get(key("lock")).value());
  CPPUNIT_ASSERT(store_->remove(key("lock")));
  CPPUNIT_ASSERT(store_->setIfAbsent(key("lock"), "third", 10s));
}

void SharedStoreContract::testSetIfAbsentRaceHasOneWinner() {
  if (skipped()) return;
  std::atomic<int> winners{0};
  race(8, [&](int i) {
    if (store_->setIfAbsent(key("race"), std::to_string(i), 10s)) ++winners;
  });
  CPPUNIT_ASSERT_EQUAL(1, winners.load());
}

void SharedStoreContract::testSetIfAbsentAfterExpiry() {
  if (skipped()) return;
  CPPUNIT_ASSERT(store_->setIfAbsent(key("nonce"), "1", 200ms));
  CPPUNIT_ASSERT(!store_->setIfAbsent(key("nonce"), "2", 200ms));
  pause(350ms);
  CPPUNIT_ASSERT(store_->setIfAbsent(key("nonce"), "3", 200ms));
  CPPUNIT_ASSERT_EQUAL(std::string("3"), store_->get(key("nonce")).value());
}

void SharedStoreContract::testTakeIsSingleUse() {
  if (skipped()) return;
  store_->set(key("flow"), "state=abc", 10s);
  CPPUNIT_ASSERT_EQUAL(std::string("state=abc"), store_->take(key("flow")).value());
  CPPUNIT_ASSERT(!store_->take(key("flow")));
  CPPUNIT_ASSERT(!store_->get(key("flow")));
}

void SharedStoreContract::testTakeRaceHasOneWinner() {
  if (skipped()) return;
  store_->set(key("once"), "x", 10s);
  std::atomic<int> winners{0};
  race(8, [&](int) {
    if (store_->take(key("once"))) ++winners;
  });
  CPPUNIT_ASSERT_EQUAL(1, winners.load());
}

void SharedStoreContract::testCounterKeepsItsFirstTtl() {
  if (skipped()) return;
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, store_->increment(key("n"), 1, 400ms));
  pause(200ms);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{6}, store_->increment(key("n"), 5, 400ms));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, store_->increment(key("n"), -2, 400ms));
  pause(300ms);  // 500 ms after creation: the first TTL ran out, later calls did not extend it
  CPPUNIT_ASSERT(!store_->get(key("n")));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, store_->increment(key("n"), 3, 0ms));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, store_->ttlLeft(key("n")).value());
}

void SharedStoreContract::testCounterRefusesText() {
  if (skipped()) return;
  store_->set(key("text"), "hello", 0ms);
  CPPUNIT_ASSERT_THROW(store_->increment(key("text"), 1, 0ms), std::invalid_argument);
  CPPUNIT_ASSERT_EQUAL(std::string("hello"), store_->get(key("text")).value());
}

void SharedStoreContract::testSlidingWindowAdmitsLimitThenRefuses() {
  if (skipped()) return;
  const std::int64_t t0 = time::nowMillis();
  const Ttl window = 60s;
  for (int i = 0; i < 3; ++i) {
    const auto d = store_->acquireSlot(key("ip"), 3, window, t0 + i * 1000);
    CPPUNIT_ASSERT(d.allowed);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{i + 1}, d.count);
  }
  const auto refused = store_->acquireSlot(key("ip"), 3, window, t0 + 10'000);
  CPPUNIT_ASSERT(!refused.allowed);
  // The oldest (t0) leaves the window at t0 + 60 s: 50 s after the refused request.
  CPPUNIT_ASSERT_EQUAL(std::int64_t{50'000}, refused.retry_after_ms);
  // Still inside the sliding window of the first request (a fixed minute would reset).
  CPPUNIT_ASSERT(!store_->acquireSlot(key("ip"), 3, window, t0 + 59'999).allowed);
  // Exactly 60 s after the first: it has left; one slot is free again, not three.
  CPPUNIT_ASSERT(store_->acquireSlot(key("ip"), 3, window, t0 + 60'000).allowed);
  const auto again = store_->acquireSlot(key("ip"), 3, window, t0 + 60'001);
  CPPUNIT_ASSERT(!again.allowed);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1'000 - 1}, again.retry_after_ms);  // t0+1000 leaves next
}

void SharedStoreContract::testSlidingWindowDoesNotCountRefusals() {
  if (skipped()) return;
  const std::int64_t t0 = time::nowMillis();
  const Ttl window = 60s;
  CPPUNIT_ASSERT(store_->acquireSlot(key("ip"), 2, window, t0).allowed);
  CPPUNIT_ASSERT(store_->acquireSlot(key("ip"), 2, window, t0 + 30'000).allowed);
  // A client hammering while refused...
  for (int i = 1; i <= 20; ++i) {
    CPPUNIT_ASSERT(!store_->acquireSlot(key("ip"), 2, window, t0 + 30'000 + i * 1000).allowed);
  }
  // ...is admitted as soon as its first admitted request leaves the window.
  CPPUNIT_ASSERT(store_->acquireSlot(key("ip"), 2, window, t0 + 60'000).allowed);
}

void SharedStoreContract::testSlidingWindowKeysAreIndependent() {
  if (skipped()) return;
  const std::int64_t t0 = time::nowMillis();
  CPPUNIT_ASSERT(store_->acquireSlot(key("a"), 1, 60s, t0).allowed);
  CPPUNIT_ASSERT(!store_->acquireSlot(key("a"), 1, 60s, t0 + 1).allowed);
  CPPUNIT_ASSERT(store_->acquireSlot(key("b"), 1, 60s, t0 + 1).allowed);
  CPPUNIT_ASSERT_THROW(store_->acquireSlot(key("c"), 0, 60s, t0), std::invalid_argument);
}

void SharedStoreContract::testSlidingWindowRaceAdmitsExactlyLimit() {
  if (skipped()) return;
  const std::int64_t t0 = time::nowMillis();
  std::atomic<int> admitted{0};
  race(8, [&](int i) {
    for (int j = 0; j < 5; ++j) {
      if (store_->acquireSlot(key("busy"), 10, 60s, t0 + i * 10 + j).allowed) ++admitted;
    }
  });
  CPPUNIT_ASSERT_EQUAL(10, admitted.load());
}

void SharedStoreContract::testUnreachableStoreThrowsStoreUnavailable() {
  if (skipped()) return;
  auto down = makeUnreachableStore();
  CPPUNIT_ASSERT(!down->ping());
  CPPUNIT_ASSERT_THROW(down->get(key("a")), state::StoreUnavailable);
  CPPUNIT_ASSERT_THROW(down->set(key("a"), "v", 1s), state::StoreUnavailable);
  CPPUNIT_ASSERT_THROW(down->setIfAbsent(key("a"), "v", 1s), state::StoreUnavailable);
  CPPUNIT_ASSERT_THROW(down->remove(key("a")), state::StoreUnavailable);
  CPPUNIT_ASSERT_THROW(down->take(key("a")), state::StoreUnavailable);
  CPPUNIT_ASSERT_THROW(down->ttlLeft(key("a")), state::StoreUnavailable);
  CPPUNIT_ASSERT_THROW(down->increment(key("a"), 1, 1s), state::StoreUnavailable);
  CPPUNIT_ASSERT_THROW(down->acquireSlot(key("a"), 1, 1s, 0), state::StoreUnavailable);
}

}  // namespace skinpulse::test
