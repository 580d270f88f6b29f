// IngestCycle's stage timings (ADR 0021): one report per stored cycle, with the fetch and
// parse the scheduler measured (the slowest source of each), the in-process stages, and
// each observer's time under the stage it was added with.

#include "OneItemStore.hpp"
#include "ingest/IngestCycle.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <thread>

using namespace skinpulse;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t kT = 1'800'000'000;
const std::string kName = "AK-47 | Redline (Field-Tested)";

class Sleeper final : public ingest::CycleObserver {
 public:
  explicit Sleeper(std::chrono::milliseconds sleep) : sleep_(sleep) {}
  void onCycle(const ingest::CycleUpdate&) override { std::this_thread::sleep_for(sleep_); }

 private:
  std::chrono::milliseconds sleep_;
};

class Timings final : public ingest::CycleTimingsObserver {
 public:
  std::vector<ingest::CycleTimings> seen;
  void onCycleTimings(const ingest::CycleTimings& timings) override { seen.push_back(timings); }
};

ingest::SourceBatch batch(const std::string& source, std::chrono::nanoseconds fetch,
                          std::chrono::nanoseconds parse) {
  ingest::SourceBatch b;
  b.source = source;
  b.poll_time = kT;
  sdk::Observation o;
  o.market_hash_name = kName;
  o.price.form = sdk::QuotedPrice::Form::kCents;
  o.price.cents = 1234;
  o.observed_at = kT;
  b.observations.push_back(o);
  b.fetch_time = fetch;
  b.parse_time = parse;
  return b;
}

std::chrono::nanoseconds of(const ingest::CycleTimings& timings, ingest::CycleStage stage) {
  return timings.durations[static_cast<std::size_t>(stage)];
}

}  // namespace

class IngestCycleTimingsTest : public testing::OneItemStore {
  CPPUNIT_TEST_SUITE(IngestCycleTimingsTest);
  CPPUNIT_TEST(everyStoredCycleReportsItsStages);
  CPPUNIT_TEST(stageNamesAreTheMetricLabels);
  CPPUNIT_TEST_SUITE_END();

 public:
  IngestCycleTimingsTest() : OneItemStore(kName, kT - 1000) {}

  void everyStoredCycleReportsItsStages() {
    ingest::IngestCycle cycle(*db_, *catalog_, latest_, false);
    Sleeper metrics(20ms), publish(10ms);
    Timings timings;
    cycle.addObserver(metrics);  // kMetrics by default
    cycle.addObserver(publish, ingest::CycleStage::kPublish);
    cycle.addTimingsObserver(timings);
    cycle.run({batch("a", 5ms, 1ms), batch("b", 2ms, 3ms)});
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), timings.seen.size());
    const auto& t = timings.seen[0];
    // Sources are fetched at once: the cycle waited for the slowest of each.
    CPPUNIT_ASSERT(of(t, ingest::CycleStage::kFetch) == 5ms);
    CPPUNIT_ASSERT(of(t, ingest::CycleStage::kParse) == 3ms);
    CPPUNIT_ASSERT(of(t, ingest::CycleStage::kMetrics) >= 20ms);
    CPPUNIT_ASSERT(of(t, ingest::CycleStage::kPublish) >= 10ms &&
                   of(t, ingest::CycleStage::kPublish) < 20ms);
    for (const auto stage :
         {ingest::CycleStage::kFetch, ingest::CycleStage::kParse, ingest::CycleStage::kNormalise,
          ingest::CycleStage::kStore, ingest::CycleStage::kLatestPrices,
          ingest::CycleStage::kMetrics, ingest::CycleStage::kPublish}) {
      CPPUNIT_ASSERT(t.measured[static_cast<std::size_t>(stage)]);
    }
    // Fan-out happens in the reactors after the cycle returned: the hub reports it.
    CPPUNIT_ASSERT(!t.measured[static_cast<std::size_t>(ingest::CycleStage::kFanout)]);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), t.points);
  }

  void stageNamesAreTheMetricLabels() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("latest_prices"),
        std::string(
            ingest::kCycleStageNames[static_cast<std::size_t>(ingest::CycleStage::kLatestPrices)]));
    CPPUNIT_ASSERT_EQUAL(
        std::string("fanout"),
        std::string(
            ingest::kCycleStageNames[static_cast<std::size_t>(ingest::CycleStage::kFanout)]));
    CPPUNIT_ASSERT_EQUAL(ingest::kCycleStageCount, ingest::kCycleStageNames.size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IngestCycleTimingsTest);
