#include "ingest/Retention.hpp"
#include "mocks/NullPriceStore.hpp"

#include <cppunit/extensions/HelperMacros.h>

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
};

}  // namespace

class RetentionTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RetentionTest);
  CPPUNIT_TEST(prunesInBatchesUntilNothingIsOld);
  CPPUNIT_TEST(stopInterruptsALongPass);
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
