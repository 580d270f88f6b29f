#include "http/WorkerPool.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

using namespace skinpulse::http;

class WorkerPoolTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(WorkerPoolTest);
  CPPUNIT_TEST(runsTasks);
  CPPUNIT_TEST(refusesWhenTheQueueIsFull);
  CPPUNIT_TEST(stopDropsQueuedTasks);
  CPPUNIT_TEST_SUITE_END();

 public:
  void runsTasks() {
    WorkerPool pool(2, 100);
    std::atomic<int> done{0};
    for (int i = 0; i < 50; ++i) {
      WorkerPool::Task task = [&done] { ++done; };
      CPPUNIT_ASSERT(pool.trySubmit(task));
    }
    for (int i = 0; i < 500 && done < 50; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    CPPUNIT_ASSERT_EQUAL(50, done.load());
  }

  void refusesWhenTheQueueIsFull() {
    WorkerPool pool(1, 2);
    std::promise<void> release;
    auto gate = release.get_future().share();
    std::atomic<bool> started{false};
    WorkerPool::Task blocker = [gate, &started] {
      started = true;
      gate.wait();
    };
    CPPUNIT_ASSERT(pool.trySubmit(blocker));
    for (int i = 0; i < 500 && !started; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    WorkerPool::Task a = [] {};
    WorkerPool::Task b = [] {};
    WorkerPool::Task c = [] {};
    CPPUNIT_ASSERT(pool.trySubmit(a));
    CPPUNIT_ASSERT(pool.trySubmit(b));
    CPPUNIT_ASSERT(!pool.trySubmit(c));
    CPPUNIT_ASSERT(c);  // a refused task is left with the caller
    release.set_value();
  }

  void stopDropsQueuedTasks() {
    auto pool = std::make_unique<WorkerPool>(1, 10);
    std::promise<void> release;
    auto gate = release.get_future().share();
    std::atomic<int> ran{0};
    WorkerPool::Task blocker = [gate, &ran] {
      gate.wait();
      ++ran;
    };
    CPPUNIT_ASSERT(pool->trySubmit(blocker));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto owned = std::make_shared<int>(1);
    WorkerPool::Task queued = [owned, &ran] { ++ran; };
    CPPUNIT_ASSERT(pool->trySubmit(queued));
    std::thread releaser([&release] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      release.set_value();
    });
    pool->stop();
    releaser.join();
    CPPUNIT_ASSERT_EQUAL(1, ran.load());
    CPPUNIT_ASSERT_EQUAL(1L, owned.use_count());  // the dropped task was destroyed
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(WorkerPoolTest);
