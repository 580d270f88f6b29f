// IngestCycle with the outlier rules (docs/api.md §12): a polled spike is stored flagged
// and reaches the latest prices flagged; the next cycle's confirming point clears the
// flag in the store and the cache, and the observers get the confirmed point first.

#include "OneItemStore.hpp"
#include "ingest/IngestCycle.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

constexpr std::int64_t kT = 1'800'000'000;
const std::string kName = "AK-47 | Redline (Field-Tested)";

class Recorder final : public ingest::CycleObserver {
 public:
  std::vector<std::vector<store::PricePoint>> cycles;
  void onCycle(const ingest::CycleUpdate& update) override { cycles.push_back(update.points); }
};

ingest::SourceBatch batch(const std::string& source, std::int64_t time, std::int64_t cents) {
  ingest::SourceBatch b;
  b.source = source;
  b.poll_time = time;
  sdk::Observation o;
  o.market_hash_name = kName;
  o.price.form = sdk::QuotedPrice::Form::kCents;
  o.price.cents = cents;
  o.observed_at = time;
  b.observations.push_back(o);
  return b;
}

}  // namespace

class IngestCycleOutliersTest : public testing::OneItemStore {
  CPPUNIT_TEST_SUITE(IngestCycleOutliersTest);
  CPPUNIT_TEST(aPolledSpikeIsFlaggedThenConfirmed);
  CPPUNIT_TEST(withoutRulesNothingIsFlagged);
  CPPUNIT_TEST_SUITE_END();

  Recorder recorder_;
  const prices::PricePolicy policy_{
      {prices::SourceProfile{"a", "x", sdk::PriceKind::kAsk, true, 60, 0}}, {}, true, 3.0};

 public:
  IngestCycleOutliersTest() : OneItemStore(kName, kT - 1000) {}

  void aPolledSpikeIsFlaggedThenConfirmed() {
    ingest::IngestCycle c(*db_, *catalog_, latest_, false);
    c.setOutlierRules(policy_);
    c.addObserver(recorder_);
    c.run({batch("a", kT, 1000)});
    const auto outcome = c.run({batch("a", kT + 60, 3500)});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, outcome.sources.at("a").outliers);
    auto stored = db_->prices().pointsSince(0);
    CPPUNIT_ASSERT(!stored[0].outlier);
    CPPUNIT_ASSERT(stored[1].outlier);
    CPPUNIT_ASSERT(latest_.of(1).at(0).newest.outlier);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1000}, *latest_.of(1).at(0).trusted_price);
    CPPUNIT_ASSERT(recorder_.cycles.back().at(0).outlier);  // observers see the flag

    c.run({batch("a", kT + 120, 3400)});  // confirms 3500
    stored = db_->prices().pointsSince(0);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, stored.size());
    CPPUNIT_ASSERT(!stored[1].outlier);
    CPPUNIT_ASSERT(!stored[2].outlier);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3400}, latest_.of(1).at(0).newest.price);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3400}, *latest_.of(1).at(0).trusted_price);
    const auto& last = recorder_.cycles.back();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, last.size());
    CPPUNIT_ASSERT_EQUAL(kT + 60, last[0].time);  // the confirmed point, first, unflagged
    CPPUNIT_ASSERT(!last[0].outlier);
    CPPUNIT_ASSERT_EQUAL(kT + 120, last[1].time);
    // A reload from the store gives the same state.
    prices::LatestPrices reloaded;
    reloaded.reset(db_->prices().latestPerItemSource());
    CPPUNIT_ASSERT(reloaded.of(1).at(0).newest == latest_.of(1).at(0).newest);
    CPPUNIT_ASSERT(reloaded.of(1).at(0).trusted_price == latest_.of(1).at(0).trusted_price);
  }

  void withoutRulesNothingIsFlagged() {
    ingest::IngestCycle c(*db_, *catalog_, latest_, false);
    c.run({batch("a", kT, 1000)});
    c.run({batch("a", kT + 60, 9000)});
    for (const auto& point : db_->prices().pointsSince(0)) CPPUNIT_ASSERT(!point.outlier);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IngestCycleOutliersTest);
