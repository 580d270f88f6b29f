// IngestCycle on a standby instance: the polling instance's cycles, read from the cycle
// log, reach the latest-price cache, the history cache and the observers that run on
// followed cycles (metrics) — not the others (alerts, live updates) — without a full
// reload; a backfill or a gap in the log still reloads in full.

#include "CycleLogStore.hpp"
#include "OneItemStore.hpp"
#include "ingest/IngestCycle.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using skinpulse::testing::CycleLogStore;
using skinpulse::testing::pointAt;

namespace {

constexpr std::int64_t kT = 1'800'000'000;
const std::string kName = "AK-47 | Redline (Field-Tested)";

// The real (in-memory) database, but its prices are the cycle log of the test.
class FollowDatabase final : public store::Database {
 public:
  FollowDatabase(store::Database& real, CycleLogStore& prices) : real_(real), prices_(prices) {}
  std::string backend() const override { return real_.backend(); }
  int schemaVersion() override { return real_.schemaVersion(); }
  bool ping() override { return true; }
  store::CatalogStore& catalog() override { return real_.catalog(); }
  store::PriceStore& prices() override { return prices_; }
  store::UserStore& users() override { return real_.users(); }
  store::HoldingStore& holdings() override { return real_.holdings(); }
  store::AlertStore& alerts() override { return real_.alerts(); }
  store::SnapshotStore& snapshots() override { return real_.snapshots(); }
  store::RateStore& rates() override { return real_.rates(); }
  store::IngestLease& ingestLease() override { return real_.ingestLease(); }
  store::ApiKeyStore& apiKeys() override { return real_.apiKeys(); }

 private:
  store::Database& real_;
  CycleLogStore& prices_;
};

class Recorder : public ingest::CycleObserver {
 public:
  explicit Recorder(bool follows) : follows_(follows) {}
  std::vector<store::PricePoint> seen;
  int reloads = 0;
  void onCycle(const ingest::CycleUpdate& update) override {
    seen.insert(seen.end(), update.points.begin(), update.points.end());
  }
  void onReload() override { ++reloads; }
  bool runsOnFollowedCycles() const override { return follows_; }

 private:
  bool follows_;
};

// An observer that keeps the default: alerts and live updates.
class Publisher final : public ingest::CycleObserver {
 public:
  int cycles = 0;
  void onCycle(const ingest::CycleUpdate&) override { ++cycles; }
};

}  // namespace

class IngestCycleFollowTest : public testing::OneItemStore {
  CPPUNIT_TEST_SUITE(IngestCycleFollowTest);
  CPPUNIT_TEST(aStandbyAppliesFollowedCyclesIncrementally);
  CPPUNIT_TEST(onlyObserversThatSaySoRunOnFollowedCycles);
  CPPUNIT_TEST(aBackfillStillReloadsInFull);
  CPPUNIT_TEST(aGapReloadsInFullAndFollowingResumes);
  CPPUNIT_TEST(thePollingInstanceDoesNotFollow);
  CPPUNIT_TEST_SUITE_END();

 public:
  IngestCycleFollowTest() : OneItemStore(kName, kT - 1000) {}

  void setUp() override {
    OneItemStore::setUp();
    log_ = std::make_unique<CycleLogStore>();
    log_->log(1, {pointAt(1, kT, 100)});
    database_ = std::make_unique<FollowDatabase>(*db_, *log_);
  }

  void aStandbyAppliesFollowedCyclesIncrementally() {
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    prices::HistoryCache history({1 << 20, 3600});
    cycle.setHistoryCache(history);
    Recorder metrics(true);
    cycle.addObserver(metrics);
    CPPUNIT_ASSERT(!cycle.reloadIfChangedElsewhere(true));  // nothing logged since
    const auto ticket = history.ticket(7);
    log_->log(2, {pointAt(7, kT + 60, 250), pointAt(7, kT + 60, 260, "other")});
    CPPUNIT_ASSERT(cycle.reloadIfChangedElsewhere(true));
    // The latest-price cache has the followed points...
    const auto latest = latest_.of(7);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), latest.size());
    // ...the item's history bodies rendered before are dropped...
    CPPUNIT_ASSERT(!history.fill(ticket, "", {std::make_shared<const std::string>("x")}, kT));
    // ...and the metrics saw them, without a rebuild from the store.
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), metrics.seen.size());
    CPPUNIT_ASSERT_EQUAL(0, metrics.reloads);
    CPPUNIT_ASSERT_EQUAL(0, log_->full_loads);
    // Applied once.
    CPPUNIT_ASSERT(!cycle.reloadIfChangedElsewhere(true));
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), metrics.seen.size());
  }

  void onlyObserversThatSaySoRunOnFollowedCycles() {
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    Recorder metrics(true);
    Publisher publisher;  // the polling instance already published and evaluated
    cycle.addObserver(metrics);
    cycle.addObserver(publisher, ingest::CycleStage::kPublish);
    log_->log(2, {pointAt(7, kT + 60, 250)});
    CPPUNIT_ASSERT(cycle.reloadIfChangedElsewhere(true));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), metrics.seen.size());
    CPPUNIT_ASSERT_EQUAL(0, publisher.cycles);
  }

  void aBackfillStillReloadsInFull() {
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    Recorder metrics(true);
    cycle.addObserver(metrics);
    log_->revision = 1;
    log_->log(2, {pointAt(7, kT + 60, 250)});
    CPPUNIT_ASSERT(cycle.reloadIfChangedElsewhere(true));
    CPPUNIT_ASSERT_EQUAL(1, log_->full_loads);
    CPPUNIT_ASSERT_EQUAL(1, metrics.reloads);
    CPPUNIT_ASSERT(metrics.seen.empty());
    // The reload covered cycle 2: it is not applied a second time.
    CPPUNIT_ASSERT(!cycle.reloadIfChangedElsewhere(true));
    CPPUNIT_ASSERT(metrics.seen.empty());
  }

  void aGapReloadsInFullAndFollowingResumes() {
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    Recorder metrics(true);
    cycle.addObserver(metrics);
    log_->cycles.clear();  // the log went back: a restored database
    log_->log(0, {});
    CPPUNIT_ASSERT(cycle.reloadIfChangedElsewhere(true));
    CPPUNIT_ASSERT_EQUAL(1, log_->full_loads);
    CPPUNIT_ASSERT_EQUAL(1, metrics.reloads);
    log_->log(1, {pointAt(7, kT + 60, 250)});
    CPPUNIT_ASSERT(cycle.reloadIfChangedElsewhere(true));
    CPPUNIT_ASSERT_EQUAL(1, log_->full_loads);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), metrics.seen.size());
  }

  void thePollingInstanceDoesNotFollow() {
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    Recorder metrics(true);
    cycle.addObserver(metrics);
    log_->log(2, {pointAt(7, kT + 60, 250)});
    CPPUNIT_ASSERT(!cycle.reloadIfChangedElsewhere(false));
    CPPUNIT_ASSERT(metrics.seen.empty());
    CPPUNIT_ASSERT_EQUAL(0, log_->full_loads);
  }

 private:
  std::unique_ptr<CycleLogStore> log_;
  std::unique_ptr<store::Database> database_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(IngestCycleFollowTest);
