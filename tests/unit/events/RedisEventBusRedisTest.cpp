#include "events/RedisEventBus.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>

using namespace skinpulse::events;
using namespace std::chrono_literals;

// Two buses on one Redis stand for two daemons (SKINPULSE_TEST_REDIS_URL).
class RedisEventBusRedisTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RedisEventBusRedisTest);
  CPPUNIT_TEST(eachInstanceReceivesTheOthersBatchesOnce);
  CPPUNIT_TEST(aSessionEndReachesEveryInstanceOnce);
  CPPUNIT_TEST_SUITE_END();

  struct Ended {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::string> keys;
    void add(const std::string& key) {
      std::lock_guard lock(mutex);
      keys.push_back(key);
      changed.notify_all();
    }
    std::size_t waitFor(std::size_t count, std::chrono::milliseconds timeout) {
      std::unique_lock lock(mutex);
      changed.wait_for(lock, timeout, [&] { return keys.size() >= count; });
      return keys.size();
    }
  };

  struct Received {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<UpdateBatchPtr> batches;
    void add(const UpdateBatchPtr& batch) {
      std::lock_guard lock(mutex);
      batches.push_back(batch);
      changed.notify_all();
    }
    std::size_t waitFor(std::size_t count, std::chrono::milliseconds timeout) {
      std::unique_lock lock(mutex);
      changed.wait_for(lock, timeout, [&] { return batches.size() >= count; });
      return batches.size();
    }
  };

  static bool waitSubscribed(const RedisEventBus& bus) {
    for (int i = 0; i < 100 && !bus.subscribed(); ++i) std::this_thread::sleep_for(50ms);
    return bus.subscribed();
  }

 public:
  void eachInstanceReceivesTheOthersBatchesOnce() {
    const char* url = std::getenv("SKINPULSE_TEST_REDIS_URL");
    if (url == nullptr || *url == '\0') {
      std::cerr << "SKINPULSE_TEST_REDIS_URL not set: skipped\n";
      return;
    }
    const std::string channel = "skinpulse:live:test:" + std::to_string(::getpid());
    RedisEventBus first(skinpulse::redis::parseRedisUrl(url), channel);
    RedisEventBus second(skinpulse::redis::parseRedisUrl(url), channel);
    Received atFirst, atSecond;
    first.subscribe([&](const UpdateBatchPtr& batch) { atFirst.add(batch); });
    second.subscribe([&](const UpdateBatchPtr& batch) { atSecond.add(batch); });
    first.start();
    second.start();
    CPPUNIT_ASSERT(waitSubscribed(first));
    CPPUNIT_ASSERT(waitSubscribed(second));

    first.publish(std::make_shared<const UpdateBatch>(
        "prices", std::vector<UpdateEntry>{{4, R"({"item_id":4})"}, {1, R"({"item_id":1})"}}));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), atSecond.waitFor(1, 3000ms));
    CPPUNIT_ASSERT_EQUAL(std::string("prices"), atSecond.batches[0]->kind());
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"item_id":1})"), atSecond.batches[0]->entries()[0].json);
    second.publish(std::make_shared<const UpdateBatch>(
        "volatility", std::vector<UpdateEntry>{{9, R"({"item_id":9})"}}));
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), atFirst.waitFor(2, 3000ms));
    CPPUNIT_ASSERT_EQUAL(std::string("volatility"), atFirst.batches[1]->kind());
    // Nobody gets its own batch back from Redis a second time.
    std::this_thread::sleep_for(300ms);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), atFirst.waitFor(3, 10ms));
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), atSecond.waitFor(3, 10ms));
    first.stop();
    second.stop();
  }

  // issue 31: a logout on one daemon must close the session's sockets on the others.
  void aSessionEndReachesEveryInstanceOnce() {
    const char* url = std::getenv("SKINPULSE_TEST_REDIS_URL");
    if (url == nullptr || *url == '\0') {
      std::cerr << "SKINPULSE_TEST_REDIS_URL not set: skipped\n";
      return;
    }
    const std::string channel = "skinpulse:live:test:" + std::to_string(::getpid());
    RedisEventBus first(skinpulse::redis::parseRedisUrl(url), channel);
    RedisEventBus second(skinpulse::redis::parseRedisUrl(url), channel);
    Ended atFirst, atSecond;
    Received batches;
    first.subscribeSessionEnds([&](const std::string& key) { atFirst.add(key); });
    second.subscribeSessionEnds([&](const std::string& key) { atSecond.add(key); });
    second.subscribe([&](const UpdateBatchPtr& batch) { batches.add(batch); });
    first.start();
    second.start();
    CPPUNIT_ASSERT(waitSubscribed(first));
    CPPUNIT_ASSERT(waitSubscribed(second));

    first.publishSessionEnd("session:0123abcd");
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), atFirst.waitFor(1, 10ms));  // at once, locally
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), atSecond.waitFor(1, 3000ms));
    CPPUNIT_ASSERT_EQUAL(std::string("session:0123abcd"), atSecond.keys[0]);
    std::this_thread::sleep_for(300ms);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), atFirst.waitFor(2, 10ms));  // not again from Redis
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), atSecond.waitFor(2, 10ms));
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), batches.waitFor(1, 10ms));  // not taken for a batch
    first.stop();
    second.stop();
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RedisEventBusRedisTest);
