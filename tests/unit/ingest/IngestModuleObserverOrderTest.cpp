// The ingest module runs its cycle observers by stage, then in the order they attached:
// the module table attaches metrics, then ws (stage publish), then alerts, and the cycle
// must still tell metrics and alerts before the live updates, as when app/ wired them.
#include "ingest/IngestModule.hpp"
#include "module/ServicesFixture.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace skinpulse;

namespace {

class Recorder final : public ingest::CycleObserver {
 public:
  Recorder(std::string name, std::mutex& mutex, std::vector<std::string>& log)
      : name_(std::move(name)), mutex_(mutex), log_(log) {}
  void onCycle(const ingest::CycleUpdate&) override { record(); }
  void onReload() override { record(); }

 private:
  void record() {
    std::lock_guard lock(mutex_);
    log_.push_back(name_);
  }
  std::string name_;
  std::mutex& mutex_;
  std::vector<std::string>& log_;
};

}  // namespace

class IngestModuleObserverOrderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(IngestModuleObserverOrderTest);
  CPPUNIT_TEST(observersRunByStageThenInAttachOrder);
  CPPUNIT_TEST_SUITE_END();

 public:
  void observersRunByStageThenInAttachOrder() {
    test::ServicesFixture fixture;
    ingest::MarketSources none;
    fixture.registry.provide(none);
    ingest::IngestOptions options;
    options.backfill_watch_period = std::chrono::milliseconds(20);
    ingest::IngestModule ingest(fixture.services, options);
    std::mutex mutex;
    std::vector<std::string> log;
    Recorder metrics("metrics", mutex, log);
    Recorder live("live updates", mutex, log);
    Recorder alerts("alerts", mutex, log);
    auto& hooks = fixture.registry.require<ingest::CycleHooks>();
    hooks.addObserver(metrics);
    hooks.addObserver(live, ingest::CycleStage::kPublish);
    hooks.addObserver(alerts);
    CPPUNIT_ASSERT(&fixture.registry.require<quality::PollStateSource>() != nullptr);
    ingest.start();
    // A backfill elsewhere: the watch reloads, and every observer is told, in order.
    std::vector<store::CatalogEntry> entries(1);
    entries[0].market_hash_name = "AK-47 | Redline (Field-Tested)";
    fixture.database->catalog().seed(entries, 1000);
    const auto item = fixture.database->catalog().findByName(entries[0].market_hash_name);
    CPPUNIT_ASSERT(item.has_value());
    store::PricePoint point;
    point.item_id = item->id;
    point.source = "backfill";
    point.time = 2000;
    point.price = 1234;
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, fixture.database->prices().insertBackfill({point}));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard lock(mutex);
        if (log.size() >= 3) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CPPUNIT_ASSERT(ingest.stop());
    const std::vector<std::string> expected = {"metrics", "alerts", "live updates"};
    std::lock_guard lock(mutex);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, log.size());
    CPPUNIT_ASSERT(log == expected);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IngestModuleObserverOrderTest);
