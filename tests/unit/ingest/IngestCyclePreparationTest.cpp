// IngestCycle with an observer that prepares its share of a cycle (the metrics engine):
// the preparation runs while the points are being stored, what it prepared becomes
// visible only after the store returned, the observers after it see it committed, and a
// store that throws leaves everything prepared uncommitted ("nothing is published unless
// stored", docs/adr/0021-cycle-latency.md).

#include "OneItemStore.hpp"
#include "ingest/IngestCycle.hpp"
#include "mocks/NullPriceStore.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>

using namespace skinpulse;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t kT = 1'800'000'000;
const std::string kName = "AK-47 | Redline (Field-Tested)";

// Shared by the store and the observer of one test.
struct Stage {
  std::mutex mutex;
  std::condition_variable changed;
  bool preparing = false;   ///< the observer's prepareCycle() has started
  bool stored = false;      ///< the store's insert() returned
  bool overlapped = false;  ///< insert() saw the preparation running
  bool fail_insert = false;
  std::size_t inserted = 0;
};

// The insert waits (bounded) for the preparation to start: it returns at once only when
// the two overlap; run sequentially, it would wait the whole bound and say so.
class GatedPriceStore final : public test::NullPriceStore {
 public:
  explicit GatedPriceStore(Stage& stage) : stage_(stage) {}
  std::size_t insert(const std::vector<store::PricePoint>& points) override {
    std::unique_lock lock(stage_.mutex);
    stage_.overlapped = stage_.changed.wait_for(lock, 10s, [&] { return stage_.preparing; });
    if (stage_.fail_insert) throw std::runtime_error("database is locked");
    stage_.stored = true;
    stage_.inserted = points.size();
    return points.size();
  }

 private:
  Stage& stage_;
};

class GatedDatabase final : public store::Database {
 public:
  GatedDatabase(store::Database& real, GatedPriceStore& prices) : real_(real), prices_(prices) {}
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
  GatedPriceStore& prices_;
};

// Prepares like the metrics engine: "published" is what readers would see.
class Preparer final : public ingest::CycleObserver {
 public:
  explicit Preparer(Stage& stage) : stage_(stage) {}
  std::atomic<int> published{0};
  std::atomic<int> abandoned{0};
  std::atomic<int> on_cycle{0};
  bool stored_at_commit = false;
  std::vector<std::string> names_seen;

  void onCycle(const ingest::CycleUpdate&) override { ++on_cycle; }
  std::unique_ptr<ingest::PreparedCycle> prepareCycle(
      const ingest::CycleUpdate& update, const std::vector<std::string>& source_names) override {
    names_seen = source_names;
    {
      std::lock_guard lock(stage_.mutex);
      stage_.preparing = true;
    }
    stage_.changed.notify_all();
    return std::make_unique<Prepared>(*this, update.points.size());
  }

 private:
  class Prepared final : public ingest::PreparedCycle {
   public:
    Prepared(Preparer& owner, std::size_t points) : owner_(owner), points_(points) {}
    ~Prepared() override {
      if (!committed_) ++owner_.abandoned;
    }
    void commit() override {
      {
        std::lock_guard lock(owner_.stage_.mutex);
        owner_.stored_at_commit = owner_.stage_.stored && owner_.stage_.inserted == points_;
      }
      committed_ = true;
      ++owner_.published;
    }

   private:
    Preparer& owner_;
    std::size_t points_;
    bool committed_ = false;
  };
  Stage& stage_;
};

// A later observer that runs after the store (live updates): what it sees of the first.
class After final : public ingest::CycleObserver {
 public:
  explicit After(const Preparer& first) : first_(first) {}
  int cycles = 0;
  int first_published_when_run = -1;
  void onCycle(const ingest::CycleUpdate&) override {
    ++cycles;
    first_published_when_run = first_.published;
  }

 private:
  const Preparer& first_;
};

ingest::SourceBatch oneQuote(const std::string& source) {
  ingest::SourceBatch b;
  b.source = source;
  b.poll_time = kT;
  sdk::Observation o;
  o.market_hash_name = kName;
  o.price.form = sdk::QuotedPrice::Form::kCents;
  o.price.cents = 1234;
  o.observed_at = kT;
  b.observations.push_back(o);
  return b;
}

}  // namespace

class IngestCyclePreparationTest : public testing::OneItemStore {
  CPPUNIT_TEST_SUITE(IngestCyclePreparationTest);
  CPPUNIT_TEST(thePreparationRunsWhileThePointsAreStored);
  CPPUNIT_TEST(nothingPreparedIsPublishedBeforeTheStoreReturned);
  CPPUNIT_TEST(laterObserversSeeThePreparedCycleCommitted);
  CPPUNIT_TEST(aFailedStoreCommitsNothing);
  CPPUNIT_TEST(thePreparationSeesTheCyclesNewSource);
  CPPUNIT_TEST_SUITE_END();

 public:
  IngestCyclePreparationTest() : OneItemStore(kName, kT - 1000) {}

  void setUp() override {
    OneItemStore::setUp();
    stage_ = std::make_unique<Stage>();
    prices_ = std::make_unique<GatedPriceStore>(*stage_);
    database_ = std::make_unique<GatedDatabase>(*db_, *prices_);
  }

  void thePreparationRunsWhileThePointsAreStored() {
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    Preparer metrics(*stage_);
    cycle.addObserver(metrics);
    cycle.run({oneQuote("market")});
    CPPUNIT_ASSERT(stage_->overlapped);
    CPPUNIT_ASSERT_EQUAL(1, metrics.published.load());
    CPPUNIT_ASSERT_EQUAL(0, metrics.on_cycle.load());  // prepared instead
  }

  void nothingPreparedIsPublishedBeforeTheStoreReturned() {
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    Preparer metrics(*stage_);
    cycle.addObserver(metrics);
    cycle.run({oneQuote("market")});
    CPPUNIT_ASSERT(metrics.stored_at_commit);
  }

  void laterObserversSeeThePreparedCycleCommitted() {
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    Preparer metrics(*stage_);
    After live(metrics);
    cycle.addObserver(metrics);
    cycle.addObserver(live, ingest::CycleStage::kPublish);
    cycle.run({oneQuote("market")});
    CPPUNIT_ASSERT_EQUAL(1, live.cycles);
    CPPUNIT_ASSERT_EQUAL(1, live.first_published_when_run);
  }

  void aFailedStoreCommitsNothing() {
    stage_->fail_insert = true;
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    Preparer metrics(*stage_);
    After live(metrics);
    cycle.addObserver(metrics);
    cycle.addObserver(live, ingest::CycleStage::kPublish);
    CPPUNIT_ASSERT_THROW(cycle.run({oneQuote("market")}), std::runtime_error);
    CPPUNIT_ASSERT_EQUAL(0, metrics.published.load());
    CPPUNIT_ASSERT_EQUAL(1, metrics.abandoned.load());
    CPPUNIT_ASSERT_EQUAL(0, live.cycles);
    CPPUNIT_ASSERT(latest_.of(1).empty());  // nor did the latest prices move
  }

  void thePreparationSeesTheCyclesNewSource() {
    // The latest prices commit after the store; the preparation gets their sources with
    // this cycle's in (a new source must rank in the metrics' reference order).
    ingest::IngestCycle cycle(*database_, *catalog_, latest_, false);
    Preparer metrics(*stage_);
    cycle.addObserver(metrics);
    cycle.run({oneQuote("brand-new")});
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), metrics.names_seen.size());
    CPPUNIT_ASSERT_EQUAL(std::string("brand-new"), metrics.names_seen[0]);
  }

 private:
  std::unique_ptr<Stage> stage_;
  std::unique_ptr<GatedPriceStore> prices_;
  std::unique_ptr<store::Database> database_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(IngestCyclePreparationTest);
