#include "events/InProcessEventBus.hpp"
#include "ws/LiveUpdates.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

class LiveUpdatesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LiveUpdatesTest);
  CPPUNIT_TEST(publishesPricesThenVolatility);
  CPPUNIT_TEST(withoutAProviderNoVolatilityIsSent);
  CPPUNIT_TEST(aThrowingReceiverDoesNotStopTheOthers);
  CPPUNIT_TEST_SUITE_END();

  std::vector<events::UpdateBatchPtr> batches_;
  const std::vector<store::PricePoint> points_{{5, "market \"x\"", 1795000000, 1234, 7},
                                               {2, "b", 1795000060, 99, 0},
                                               {5, "b", 1795000000, 1200, 1}};

 public:
  void setUp() override { batches_.clear(); }

  void publishesPricesThenVolatility() {
    events::InProcessEventBus bus;
    bus.subscribe([this](const events::UpdateBatchPtr& batch) { batches_.push_back(batch); });
    std::vector<std::int64_t> asked;
    ws::LiveUpdates live(bus, [&asked](std::int64_t id) -> std::optional<std::string> {
      asked.push_back(id);
      return "{\"item_id\":" + std::to_string(id) + "}";
    });
    live.onCycle(ingest::CycleUpdate{1795000060, points_});
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), batches_.size());
    CPPUNIT_ASSERT_EQUAL(std::string("prices"), batches_[0]->kind());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), batches_[0]->entries().size());
    CPPUNIT_ASSERT_EQUAL(
        std::string(R"({"item_id":5,"source":"market \"x\"","price":1234,"volume":7,)"
                    R"("time":"2026-11-18T11:06:40Z"})"),
        batches_[0]->entries()[1].json);
    CPPUNIT_ASSERT(batches_[0]->followed());  // the volatility batch comes right after
    CPPUNIT_ASSERT_EQUAL(std::string("volatility"), batches_[1]->kind());
    CPPUNIT_ASSERT(!batches_[1]->followed());
    CPPUNIT_ASSERT((asked == std::vector<std::int64_t>{2, 5}));  // once per item
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), batches_[1]->entries().size());
  }

  void withoutAProviderNoVolatilityIsSent() {
    events::InProcessEventBus bus;
    bus.subscribe([this](const events::UpdateBatchPtr& batch) { batches_.push_back(batch); });
    ws::LiveUpdates live(bus);
    live.onCycle(ingest::CycleUpdate{1795000060, points_});
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batches_.size());
    CPPUNIT_ASSERT(!batches_[0]->followed());  // nothing follows: receivers must not wait
    const std::vector<store::PricePoint> empty;
    live.onCycle(ingest::CycleUpdate{1795000060, empty});
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batches_.size());
  }

  void aThrowingReceiverDoesNotStopTheOthers() {
    events::InProcessEventBus bus;
    bus.subscribe([](const events::UpdateBatchPtr&) { throw std::runtime_error("boom"); });
    bus.subscribe([this](const events::UpdateBatchPtr& batch) { batches_.push_back(batch); });
    ws::LiveUpdates(bus).onCycle(ingest::CycleUpdate{1795000060, points_});
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batches_.size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LiveUpdatesTest);
