#include "ingest/Scheduler.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace skinpulse;

namespace {

// A source whose next answers the test scripts; counts its calls.
class ScriptedSource final : public sdk::MarketSource {
 public:
  std::function<sdk::FetchResult()> next;
  std::atomic<int> calls{0};
  sdk::FetchResult fetch() override {
    ++calls;
    return next();
  }
};

sdk::FetchResult observations(int count) {
  sdk::FetchResult result;
  for (int i = 0; i < count; ++i) {
    sdk::Observation o;
    o.market_hash_name = "item" + std::to_string(i);
    o.price.cents = 100 + i;
    result.observations.push_back(o);
  }
  return result;
}

bool waitFor(const std::function<bool()>& condition, int seconds = 5) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return condition();
}

SourceStatus statusOf(const Scheduler& scheduler, const std::string& name) {
  for (const auto& status : scheduler.status()) {
    if (status.name == name) return status;
  }
  return {};
}

}  // namespace

class SchedulerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SchedulerTest);
  CPPUNIT_TEST(failingSourceDoesNotStopTheOthers);
  CPPUNIT_TEST(rateLimitWaitsForRetryAfter);
  CPPUNIT_TEST(timeoutAbandonsTheFetchForTheCycle);
  CPPUNIT_TEST(storeFailureIsAFailureOfTheCycle);
  CPPUNIT_TEST(standbyInstancePollsNothingUntilItHoldsTheLease);
  CPPUNIT_TEST_SUITE_END();

  std::mutex mutex_;
  std::vector<std::vector<SourceBatch>> cycles_;

  Scheduler::CycleSink recordingSink() {
    return [this](const std::vector<SourceBatch>& batches) {
      std::lock_guard lock(mutex_);
      cycles_.push_back(batches);
      CycleOutcome outcome;
      for (const auto& batch : batches) {
        auto& source = outcome.sources[batch.source];
        source.received = batch.observations.size() + batch.quotes.size();
        source.accepted = batch.observations.size() + batch.quotes.size();
      }
      return outcome;
    };
  }

 public:
  void setUp() override { cycles_.clear(); }

  void failingSourceDoesNotStopTheOthers() {
    ScriptedSource good;
    ScriptedSource bad;
    good.next = [] { return observations(3); };
    bad.next = [] {
      sdk::FetchResult r;
      r.status = sdk::Status(sdk::Status::Code::kUnavailable, "HTTP 503");
      return r;
    };
    Scheduler scheduler({{"good", "p", &good, 60, 5}, {"bad", "p", &bad, 60, 5}}, recordingSink());
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "bad").consecutive_failures == 1; }));
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "good").last_success.has_value(); }));
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
    std::lock_guard lock(mutex_);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), cycles_.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), cycles_[0].size());  // only the good source's batch
    CPPUNIT_ASSERT_EQUAL(std::string("good"), cycles_[0][0].source);
    const auto bad_status = statusOf(scheduler, "bad");
    CPPUNIT_ASSERT(bad_status.last_error.find("HTTP 503") != std::string::npos);
    CPPUNIT_ASSERT(!bad_status.last_success);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(3), statusOf(scheduler, "good").points_accepted);
  }

  void rateLimitWaitsForRetryAfter() {
    ScriptedSource limited;
    limited.next = [] {
      sdk::FetchResult r;
      r.status = sdk::Status(sdk::Status::Code::kRateLimited, "429");
      r.retry_after_seconds = 600;
      return r;
    };
    Scheduler scheduler({{"limited", "p", &limited, 60, 5}}, recordingSink());
    scheduler.start();
    CPPUNIT_ASSERT(
        waitFor([&] { return statusOf(scheduler, "limited").consecutive_failures == 1; }));
    const auto status = statusOf(scheduler, "limited");
    CPPUNIT_ASSERT(status.next_poll - *status.last_poll >= 600);
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
    CPPUNIT_ASSERT_EQUAL(1, limited.calls.load());
  }

  void timeoutAbandonsTheFetchForTheCycle() {
    ScriptedSource slow;
    ScriptedSource fast;
    std::atomic<bool> release{false};
    slow.next = [&] {
      while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return observations(1);
    };
    fast.next = [] { return observations(2); };
    Scheduler scheduler({{"slow", "p", &slow, 60, 1}, {"fast", "p", &fast, 60, 5}},
                        recordingSink());
    const auto started = std::chrono::steady_clock::now();
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "fast").last_success.has_value(); }));
    CPPUNIT_ASSERT(std::chrono::steady_clock::now() - started < std::chrono::seconds(4));
    const auto slowStatus = statusOf(scheduler, "slow");
    CPPUNIT_ASSERT(slowStatus.last_error.find("timed out") != std::string::npos);
    // Still running: stop() reports it instead of pretending the plugin is idle.
    CPPUNIT_ASSERT(!scheduler.stop(std::chrono::milliseconds(100)));
    release = true;
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(2)));  // now it has returned
    CPPUNIT_ASSERT_EQUAL(1, slow.calls.load());
  }

  void storeFailureIsAFailureOfTheCycle() {
    ScriptedSource source;
    source.next = [] { return observations(1); };
    Scheduler scheduler({{"s", "p", &source, 60, 5}},
                        [](const std::vector<SourceBatch>&) -> CycleOutcome {
                          throw std::runtime_error("database is locked");
                        });
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "s").consecutive_failures == 1; }));
    CPPUNIT_ASSERT(statusOf(scheduler, "s").last_error.find("database is locked") !=
                   std::string::npos);
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
  }

  void standbyInstancePollsNothingUntilItHoldsTheLease() {
    ScriptedSource source;
    source.next = [] { return observations(2); };
    std::atomic<bool> leaseFree{false};
    std::atomic<int> asked{0};
    Scheduler scheduler({{"a", "simulated", &source, 2, 5}}, recordingSink(), [&] {
      ++asked;
      return leaseFree.load();
    });
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return asked.load() >= 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CPPUNIT_ASSERT_EQUAL(0, source.calls.load());
    CPPUNIT_ASSERT(!scheduler.polling());
    CPPUNIT_ASSERT(!statusOf(scheduler, "a").last_poll);
    leaseFree = true;  // the other instance went away
    // Rechecked every interval/2 = 1 s: well within two intervals.
    CPPUNIT_ASSERT(waitFor([&] { return source.calls.load() >= 1; }, 3));
    CPPUNIT_ASSERT(waitFor([&] { return scheduler.polling(); }));
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::milliseconds(2000)));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SchedulerTest);
