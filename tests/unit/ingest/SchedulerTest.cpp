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

// An ABI 1.3 source whose reports the test scripts, called through the SDK's poll boundary
// as the descriptor's poll entry would be.
class ScriptedReporter final : public sdk::ReportingSource {
 public:
  std::function<sdk::PollReport()> next;
  std::atomic<int> calls{0};
  sdk::PollReport poll() override {
    ++calls;
    return next();
  }
};

ingest::Scheduler::Source reporting(const std::string& name, ScriptedReporter& reporter) {
  ingest::Scheduler::Source source{name, "p", &reporter, 60, 5};
  source.poll = &sdk::detail::poll<sdk::MarketSource, ScriptedReporter>;
  return source;
}

sdk::VariantQuote variantQuote(const std::string& name, std::int64_t cents,
                               const std::string& variant = {}) {
  sdk::VariantQuote quote;
  quote.market_hash_name = name;
  quote.price.cents = cents;
  quote.variant = variant;
  return quote;
}

ingest::SourceStatus statusOf(const ingest::Scheduler& scheduler, const std::string& name) {
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
  CPPUNIT_TEST(rowsReadAndNoQuoteIsAMalformedResponse);
  CPPUNIT_TEST(quotesAllRefusedIsAMalformedResponse);
  CPPUNIT_TEST(quotesRefusedForWantOfARateSayNoRate);
  CPPUNIT_TEST(emptyMarketIsStillASuccess);
  CPPUNIT_TEST(skippedRowsAreCountedAndTheQuotesStored);
  CPPUNIT_TEST(failedPartIsCountedAndTheGoodPartStored);
  CPPUNIT_TEST(skipReasonsAreBoundedPerSource);
  CPPUNIT_TEST_SUITE_END();

  std::mutex mutex_;
  std::vector<std::vector<ingest::SourceBatch>> cycles_;

  std::size_t cycleCount() {
    std::lock_guard lock(mutex_);
    return cycles_.size();
  }

  ingest::Scheduler::CycleSink recordingSink() {
    return [this](const std::vector<ingest::SourceBatch>& batches) {
      std::lock_guard lock(mutex_);
      cycles_.push_back(batches);
      ingest::CycleOutcome outcome;
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
    ingest::Scheduler scheduler({{"good", "p", &good, 60, 5}, {"bad", "p", &bad, 60, 5}},
                                recordingSink());
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
    ingest::Scheduler scheduler({{"limited", "p", &limited, 60, 5}}, recordingSink());
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
    ingest::Scheduler scheduler({{"slow", "p", &slow, 60, 1}, {"fast", "p", &fast, 60, 5}},
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
    ingest::Scheduler scheduler(
        {{"s", "p", &source, 60, 5}},
        [](const std::vector<ingest::SourceBatch>&) -> ingest::CycleOutcome {
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
    ingest::Scheduler scheduler({{"a", "simulated", &source, 2, 5}}, recordingSink(), [&] {
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

  void rowsReadAndNoQuoteIsAMalformedResponse() {
    ScriptedReporter dmarket;
    ScriptedSource healthy;
    dmarket.next = [] {
      sdk::PollReport report;  // status OK: the plugin did not notice
      report.rows_read = 4;
      report.skipped = {{"no_price", 3}, {"bad_price", 1}};
      return report;
    };
    healthy.next = [] { return observations(2); };
    ingest::Scheduler scheduler({reporting("dmarket", dmarket), {"healthy", "p", &healthy, 60, 5}},
                                recordingSink());
    scheduler.start();
    CPPUNIT_ASSERT(
        waitFor([&] { return statusOf(scheduler, "dmarket").consecutive_failures == 1; }));
    CPPUNIT_ASSERT(
        waitFor([&] { return statusOf(scheduler, "healthy").last_success.has_value(); }));
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
    const auto status = statusOf(scheduler, "dmarket");
    CPPUNIT_ASSERT(!status.last_success);
    CPPUNIT_ASSERT_EQUAL(
        std::string("malformed_response: no usable row: 4 read, skipped: no_price×3, bad_price×1"),
        status.last_error);
    CPPUNIT_ASSERT(status.next_poll - *status.last_poll >= 60);  // backed off
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(4), status.rows.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(3), status.rows.skipped.at("no_price"));
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(1), status.rows.last_skipped.at("bad_price"));
    std::lock_guard lock(mutex_);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), cycles_.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), cycles_[0].size());  // the healthy source only
    CPPUNIT_ASSERT_EQUAL(std::string("healthy"), cycles_[0][0].source);
  }

  void quotesAllRefusedIsAMalformedResponse() {
    ScriptedSource source;
    source.next = [] { return observations(2); };
    ingest::Scheduler scheduler({{"s", "p", &source, 60, 5}},
                                [](const std::vector<ingest::SourceBatch>& batches) {
                                  ingest::CycleOutcome outcome;
                                  auto& refused = outcome.sources[batches.at(0).source];
                                  refused.received = 2;
                                  refused.rejected["unknown_item"] = 2;
                                  return outcome;
                                });
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "s").consecutive_failures == 1; }));
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
    const auto status = statusOf(scheduler, "s");
    CPPUNIT_ASSERT(!status.last_success);
    CPPUNIT_ASSERT_EQUAL(
        std::string("malformed_response: no usable row: 2 quote(s), all refused: unknown_item×2"),
        status.last_error);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), status.rejected.at("unknown_item"));
  }

  // A EUR feed polled before any rate is loaded stored nothing: a failure, but the daemon's
  // (no rate), not a feed it misreads.
  void quotesRefusedForWantOfARateSayNoRate() {
    ScriptedSource source;
    source.next = [] { return observations(3); };
    ingest::Scheduler scheduler({{"s", "p", &source, 60, 5}},
                                [](const std::vector<ingest::SourceBatch>& batches) {
                                  ingest::CycleOutcome outcome;
                                  auto& refused = outcome.sources[batches.at(0).source];
                                  refused.received = 3;
                                  refused.rejected[std::string(ingest::kRejectedNoRate)] = 3;
                                  return outcome;
                                });
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "s").consecutive_failures == 1; }));
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
    const auto status = statusOf(scheduler, "s");
    CPPUNIT_ASSERT(!status.last_success);
    CPPUNIT_ASSERT_EQUAL(std::string("no_rate: no usable row: 3 quote(s), all refused: no_rate×3"),
                         status.last_error);
  }

  void emptyMarketIsStillASuccess() {
    ScriptedReporter quiet;
    quiet.next = [] { return sdk::PollReport{}; };  // nothing read, nothing skipped
    ingest::Scheduler scheduler({reporting("quiet", quiet)}, recordingSink());
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "quiet").last_success.has_value(); }));
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
    CPPUNIT_ASSERT_EQUAL(0, statusOf(scheduler, "quiet").consecutive_failures);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), cycleCount());
  }

  void skippedRowsAreCountedAndTheQuotesStored() {
    ScriptedReporter source;
    source.next = [] {
      sdk::PollReport report;
      report.rows_read = 10;
      report.quotes.push_back(variantQuote("★ Karambit | Doppler (Factory New)", 250000, "Ruby"));
      report.quotes.push_back(variantQuote("Recoil Case", 41));
      report.skipped = {{"locked", 6}, {"no_price", 2}};
      return report;
    };
    ingest::Scheduler scheduler({reporting("lis", source)}, recordingSink());
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "lis").last_success.has_value(); }));
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
    const auto status = statusOf(scheduler, "lis");
    CPPUNIT_ASSERT(status.last_error.empty());
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(10), status.rows.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(10), status.rows.last_rows_read);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(6), status.rows.skipped.at("locked"));
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(2), status.rows.skipped.at("no_price"));
    std::lock_guard lock(mutex_);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), cycles_.at(0).at(0).quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(250000), cycles_[0][0].quotes[0].price.cents);
  }

  void failedPartIsCountedAndTheGoodPartStored() {
    ScriptedReporter csgo;
    csgo.next = [] {
      sdk::PollReport report;
      report.rows_read = 1;
      report.quotes.push_back(variantQuote("Recoil Case", 41));
      report.failed_parts.push_back(
          {"bids", sdk::Status(sdk::Status::Code::kUnavailable, "HTTP 503")});
      return report;
    };
    ingest::Scheduler scheduler({reporting("csgo", csgo)}, recordingSink());
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "csgo").last_success.has_value(); }));
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
    const auto status = statusOf(scheduler, "csgo");
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(1), status.rows.part_failures);
    CPPUNIT_ASSERT_EQUAL(std::string("bids: upstream unavailable: HTTP 503"),
                         status.rows.last_part_failure);
    CPPUNIT_ASSERT(status.rows.last_part_failure_at.has_value());
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(1), status.points_accepted);  // the asks were kept
  }

  void skipReasonsAreBoundedPerSource() {
    ScriptedReporter noisy;
    noisy.next = [] {
      sdk::PollReport report;
      report.rows_read = 41;
      report.quotes.push_back(variantQuote("Recoil Case", 41));
      for (int i = 0; i < 20; ++i) report.skipped.emplace_back("reason_" + std::to_string(i), 2);
      return report;
    };
    ingest::Scheduler scheduler({reporting("noisy", noisy)}, recordingSink());
    scheduler.start();
    CPPUNIT_ASSERT(waitFor([&] { return statusOf(scheduler, "noisy").last_success.has_value(); }));
    CPPUNIT_ASSERT(scheduler.stop(std::chrono::seconds(1)));
    const auto skipped = statusOf(scheduler, "noisy").rows.skipped;
    CPPUNIT_ASSERT_EQUAL(std::size_t(17), skipped.size());  // 16 reasons and "other"
    CPPUNIT_ASSERT_EQUAL(std::uint64_t(8), skipped.at("other"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SchedulerTest);
