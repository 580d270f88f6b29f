#include "ImportLockContract.hpp"

#include <atomic>
#include <iostream>
#include <random>
#include <thread>
#include <vector>

namespace skinpulse::test {

namespace {

using namespace std::chrono_literals;
using portfolio::ImportLock;

constexpr auto kHold = 60s;
constexpr auto kCooldown = 600s;

std::string uniqueToken() {
  static std::atomic<int> counter{0};
  return "t" + std::to_string(++counter);
}

}  // namespace

void ImportLockContract::setUp() {
  std::random_device random;
  user_ = "user-" + std::to_string(random()) + "-" + std::to_string(random());
  store_ = makeStore();
  if (skipped()) std::cout << " (skipped: " << skipReason() << ")";
}

void ImportLockContract::tearDown() {
  store_.reset();
  cleanUp();
}

ImportLock ImportLockContract::lockOn(state::SharedStore& store) {
  return ImportLock(store, uniqueToken);
}

void ImportLockContract::testOneHolderUntilReleased() {
  if (skipped()) return;
  auto lock = lockOn(*store_);
  const auto first = lock.acquire(user_, kHold, kCooldown);
  CPPUNIT_ASSERT(first.token);
  const auto second = lock.acquire(user_, kHold, kCooldown);
  CPPUNIT_ASSERT(!second.token);
  // While an import runs, the wait announced is the cooldown it will start.
  CPPUNIT_ASSERT_EQUAL(std::int64_t{600}, second.retry_after_seconds);
  lock.release(user_, *first.token);
  CPPUNIT_ASSERT(lock.acquire(user_, kHold, kCooldown).token);
}

void ImportLockContract::testReleaseLeavesAnotherAttemptsLock() {
  if (skipped()) return;
  auto lock = lockOn(*store_);
  const auto held = lock.acquire(user_, kHold, kCooldown);
  CPPUNIT_ASSERT(held.token);
  lock.release(user_, "someone-else");  // a stale attempt must not free the current one
  CPPUNIT_ASSERT(!lock.acquire(user_, kHold, kCooldown).token);
}

void ImportLockContract::testFinishStartsTheCooldownWithItsTimeLeft() {
  if (skipped()) return;
  auto lock = lockOn(*store_);
  const auto held = lock.acquire(user_, kHold, kCooldown);
  lock.finish(user_, *held.token, kCooldown, 1'800'000'000);
  lock.release(user_, *held.token);  // too late: the cooldown is not the running lock
  const auto refused = lock.acquire(user_, kHold, kCooldown);
  CPPUNIT_ASSERT(!refused.token);
  CPPUNIT_ASSERT(refused.retry_after_seconds > 590 && refused.retry_after_seconds <= 600);
  const auto left = store_->ttlLeft(ImportLock::keyOf(user_));
  CPPUNIT_ASSERT(left && *left > 590'000 && *left <= 600'000);
}

void ImportLockContract::testCooldownExpires() {
  if (skipped()) return;
  auto lock = lockOn(*store_);
  const auto held = lock.acquire(user_, kHold, 1s);
  lock.finish(user_, *held.token, 1s, 1'800'000'000);
  const auto refused = lock.acquire(user_, kHold, 1s);
  CPPUNIT_ASSERT(!refused.token);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, refused.retry_after_seconds);
  std::this_thread::sleep_for(1200ms);
  CPPUNIT_ASSERT(lock.acquire(user_, kHold, 1s).token);
}

void ImportLockContract::testUsersAreIndependent() {
  if (skipped()) return;
  auto lock = lockOn(*store_);
  const auto held = lock.acquire(user_, kHold, kCooldown);
  lock.finish(user_, *held.token, kCooldown, 1'800'000'000);
  CPPUNIT_ASSERT(lock.acquire(user_ + "-other", kHold, kCooldown).token);
}

void ImportLockContract::testRaceHasOneWinner() {
  if (skipped()) return;
  // Each contender has its own lock object and its own store (connection), as two
  // daemon instances would.
  constexpr int kContenders = 8;
  std::vector<std::unique_ptr<state::SharedStore>> stores;
  for (int i = 0; i < kContenders; ++i) stores.push_back(makeStore());
  std::atomic<bool> go{false};
  std::atomic<int> winners{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kContenders; ++i) {
    threads.emplace_back([&, i] {
      while (!go.load()) std::this_thread::yield();
      try {
        auto lock = lockOn(*stores[i]);
        if (lock.acquire(user_, kHold, kCooldown).token) ++winners;
      } catch (const std::exception&) {
        ++failures;
      }
    });
  }
  go = true;
  for (auto& thread : threads) thread.join();
  CPPUNIT_ASSERT_EQUAL(0, failures.load());
  CPPUNIT_ASSERT_EQUAL(1, winners.load());
}

void ImportLockContract::testCooldownOutlivesTheProcessState() {
  if (skipped()) return;
  {
    auto lock = lockOn(*store_);
    const auto held = lock.acquire(user_, kHold, kCooldown);
    lock.finish(user_, *held.token, kCooldown, 1'800'000'000);
  }
  // A restarted daemon: new store object, new lock, same backend.
  auto restarted = makeStore();
  auto lock = lockOn(*restarted);
  CPPUNIT_ASSERT(!lock.acquire(user_, kHold, kCooldown).token);
}

void ImportLockContract::testUnreachableStoreFailsClosed() {
  auto down = makeUnreachableStore();
  auto lock = lockOn(*down);
  CPPUNIT_ASSERT_THROW(lock.acquire(user_, kHold, kCooldown), state::StoreUnavailable);
  CPPUNIT_ASSERT_THROW(lock.finish(user_, "t", kCooldown, 1'800'000'000), state::StoreUnavailable);
  lock.release(user_, "t");  // never throws: a lock it cannot delete expires by itself
}

}  // namespace skinpulse::test
