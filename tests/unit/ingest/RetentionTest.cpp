#include "ingest/Retention.hpp"
#include "mocks/NullPriceStore.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <array>
#include <utility>
#include <vector>

using namespace skinpulse;

namespace {

// Records the batches it is asked for; holds `remaining` old points.
class CountingPrices final : public test::NullPriceStore {
 public:
  std::size_t remaining = 0;
  std::vector<std::size_t> batches;
  std::int64_t last_before = 0;
  std::int64_t last_reference = 0;

  std::size_t deleteOlderThan(std::int64_t before, std::int64_t keep_reference_at,
                              std::size_t limit) override {
    last_before = before;
    last_reference = keep_reference_at;
    batches.push_back(limit);
    const std::size_t deleted = std::min(limit, remaining);
    remaining -= deleted;
    return deleted;
  }
  PartitionPass maintainPartitions(std::int64_t now, std::int64_t before,
                                   std::int64_t keep_reference_at) override {
    partitions.push_back({now, before, keep_reference_at});
    PartitionPass pass;
    pass.dropped = 2;
    return pass;
  }
  std::size_t deleteRollupsBefore(store::RollupLevel level, std::int64_t before) override {
    rollups.emplace_back(level, before);
    return 10;
  }
  std::vector<std::array<std::int64_t, 3>> partitions;
  std::vector<std::pair<store::RollupLevel, std::int64_t>> rollups;
};

}  // namespace

class RetentionTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RetentionTest);
  CPPUNIT_TEST(prunesInBatchesUntilNothingIsOld);
  CPPUNIT_TEST(stopInterruptsALongPass);
  CPPUNIT_TEST(dropsPartitionsAndPrunesRollups);
  CPPUNIT_TEST_SUITE_END();

 public:
  void prunesInBatchesUntilNothingIsOld() {
    CountingPrices prices;
    prices.remaining = 12;
    ingest::Retention::Options options;
    options.retention_days = 7;
    options.batch = 5;
    options.pause = std::chrono::milliseconds(1);
    ingest::Retention retention(prices, options);
    CPPUNIT_ASSERT_EQUAL(std::size_t(12), retention.prune(1000000));
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), prices.batches.size());  // 5, 5, 2
    CPPUNIT_ASSERT_EQUAL(INT64_C(1000000) - 7 * 86400, prices.last_before);
    // Each series keeps its p_ref of the 7d window, however old (docs/api.md §3.2).
    CPPUNIT_ASSERT_EQUAL(INT64_C(1000000) - 7 * 86400, prices.last_reference);
  }

  // docs/api.md §20: whole days first (PostgreSQL), then rows, then bars past their own
  // retention; 0 keeps a level forever.
  void dropsPartitionsAndPrunesRollups() {
    CountingPrices prices;
    ingest::Retention::Options options;
    options.retention_days = 30;
    ingest::Retention retention(prices, options);
    const std::int64_t now = 2000000000;
    const auto pass = retention.pass(now);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.partitions.size());
    CPPUNIT_ASSERT((prices.partitions[0] ==
                    std::array<std::int64_t, 3>{now, now - 30 * 86400, now - 7 * 86400}));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, pass.partitions.dropped);
    // Defaults: hourly bars 400 days, daily bars forever.
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.rollups.size());
    CPPUNIT_ASSERT(prices.rollups[0].first == store::RollupLevel::kHour);
    CPPUNIT_ASSERT_EQUAL(now - 400 * 86400, prices.rollups[0].second);
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, pass.hourly_bars);
    options.rollup_hourly_days = 0;
    options.rollup_daily_days = 3650;
    prices.rollups.clear();
    ingest::Retention::Options other = options;
    ingest::Retention forever(prices, other);
    forever.pass(now);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.rollups.size());
    CPPUNIT_ASSERT(prices.rollups[0].first == store::RollupLevel::kDay);
    CPPUNIT_ASSERT_EQUAL(now - 3650 * 86400, prices.rollups[0].second);
  }

  void stopInterruptsALongPass() {
    CountingPrices prices;
    prices.remaining = 1000000;
    ingest::Retention::Options options;
    options.batch = 1;
    options.first_run = std::chrono::seconds(0);
    options.pause = std::chrono::milliseconds(20);
    ingest::Retention retention(prices, options);
    retention.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto started = std::chrono::steady_clock::now();
    retention.stop();
    CPPUNIT_ASSERT(std::chrono::steady_clock::now() - started < std::chrono::seconds(1));
    CPPUNIT_ASSERT(prices.remaining > 900000);  // paused between batches, not a tight loop
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RetentionTest);
