#include "mocks/TestPricePolicy.hpp"
#include "portfolio/ValueSnapshots.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::portfolio;

namespace {

constexpr std::int64_t kHour = 3600;
constexpr std::int64_t kNow = 1'800'000'000 + 1234;  // 20 min 34 s into an hour

}  // namespace

class ValueSnapshotsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ValueSnapshotsTest);
  CPPUNIT_TEST(hourOfRoundsDown);
  CPPUNIT_TEST(passValuesEveryHolderAtTheValuersPrices);
  CPPUNIT_TEST(aSecondPassInTheHourReplaces);
  CPPUNIT_TEST(passPrunesPastTheRetention);
  CPPUNIT_TEST(afterImportSnapshotAndHistoryWindow);
  CPPUNIT_TEST(passCountsAppliedItemsAtTheConfiguredPercent);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", SKINPULSE_SHARE_DIR "/sql");
    db_->catalog().seed({{"Recoil Case", "", "", "", false, ""},
                         {"AK-47 | Redline (Field-Tested)", "", "", "", false, ""}},
                        1000);
    catalog_.reset(db_->catalog().allItems());
    user_ = db_->users().createUser("u@example.com", "U", "", 1000).id;
    db_->holdings().replaceHoldings(user_, {{1, 10, 0}, {2, 2, 0}}, 1000);
    store::CostChange cost;
    cost.set_cost_basis = true;
    cost.cost_basis = 3000;
    db_->holdings().changeCost(user_, 2, cost, 1000);
    // The AK's newest point is a flagged spike: the pass counts the trusted price.
    store::PricePoint spike{2, "m", kNow - 30, 99999, 1};
    spike.outlier = true;
    latest_.apply({{1, "m", kNow - 60, 50, 1}, {2, "m", kNow - 120, 4000, 1}, spike});
    valuer_ = std::make_unique<PortfolioValuer>(catalog_, latest_, policy_);
    snapshots_ = std::make_unique<ValueSnapshots>(db_->snapshots(), *valuer_, 365 * 86400);
  }

  // docs/api.md §23.1: with applied value counting, a user holding a stickered AK gets the
  // snapshot their answer shows (the case's price doubles as the sticker's here).
  void passCountsAppliedItemsAtTheConfiguredPercent() {
    const std::string other = db_->users().createUser("v@example.com", "V", "", 1000).id;
    store::HoldingRecord crafted{2, 1, 0};
    crafted.applied = {{"sticker", 0, "Recoil Case", 1}, {"sticker", 1, "Recoil Case", 1}};
    db_->holdings().replaceHoldings(other, "76561197960287930", {crafted}, {}, 1000);
    const PortfolioValuer half(catalog_, latest_, policy_, {}, 50);
    ValueSnapshots pass(db_->snapshots(), half, 365 * 86400, &db_->holdings());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, pass.takeAll(kNow).users);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4000 + 50},  // half of 2 × 50
                         pass.history(other, 86400, kNow).at(0).total_value);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10 * 50 + 2 * 4000},
                         pass.history(user_, 86400, kNow).at(0).total_value);
    // At 0 % (or without the holdings) the set-based sum stands.
    snapshots_->takeAll(kNow + 1);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4000},
                         snapshots_->history(other, 86400, kNow + 1).at(0).total_value);
  }

  void hourOfRoundsDown() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1'800'000'000 - 1'800'000'000 % kHour}, hourOf(kNow));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7200}, hourOf(7200));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7200}, hourOf(10799));
  }

  void passValuesEveryHolderAtTheValuersPrices() {
    const auto outcome = snapshots_->takeAll(kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, outcome.users);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, outcome.items);
    const auto points = snapshots_->history(user_, 7 * 86400, kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, points.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10 * 50 + 2 * 4000}, points[0].total_value);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2 * 3000}, points[0].cost_total);
    // The same numbers as the valuation the answers show.
    const auto valuation = valuer_->value(db_->holdings().holdingsOf(user_), kNow);
    CPPUNIT_ASSERT_EQUAL(valuation.total_value, points[0].total_value);
    CPPUNIT_ASSERT_EQUAL(valuation.cost_total, points[0].cost_total);
  }

  void aSecondPassInTheHourReplaces() {
    snapshots_->takeAll(kNow);
    latest_.apply({{1, "m", kNow + 60, 70, 1}});
    snapshots_->takeAll(kNow + 120);
    auto points = snapshots_->history(user_, 7 * 86400, kNow + 120);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, points.size());
    CPPUNIT_ASSERT_EQUAL(kNow + 120, points[0].taken_at);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10 * 70 + 2 * 4000}, points[0].total_value);
    snapshots_->takeAll(kNow + kHour);  // the next hour: a second point
    points = snapshots_->history(user_, 7 * 86400, kNow + kHour);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, points.size());
  }

  void passPrunesPastTheRetention() {
    const std::int64_t year = 365 * 86400;
    db_->snapshots().putSnapshot(user_, {hourOf(kNow - year) - kHour, kNow - year - kHour, 1, 0});
    db_->snapshots().putSnapshot(user_, {hourOf(kNow - year), kNow - year, 2, 0});
    const auto outcome = snapshots_->takeAll(kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, outcome.pruned);
    const auto points = db_->snapshots().snapshotsOf(user_, 0);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, points.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, points[0].total_value);
  }

  void afterImportSnapshotAndHistoryWindow() {
    db_->snapshots().putSnapshot(user_, {hourOf(kNow - 8 * 86400), kNow - 8 * 86400, 5, 0});
    const auto valuation = valuer_->value(db_->holdings().holdingsOf(user_), kNow);
    snapshots_->takeOne(user_, valuation, kNow);
    auto points = snapshots_->history(user_, 7 * 86400, kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, points.size());  // the 8-day-old one is outside
    CPPUNIT_ASSERT((points[0] == store::SnapshotRecord{hourOf(kNow), kNow, 8500, 6000}));
    points = snapshots_->history(user_, 30 * 86400, kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, points.size());
  }

 private:
  std::unique_ptr<store::Database> db_;
  catalog::Catalog catalog_;
  prices::LatestPrices latest_;
  std::string user_;
  const prices::PricePolicy policy_ = test::pricePolicy({"m"});
  std::unique_ptr<PortfolioValuer> valuer_;
  std::unique_ptr<ValueSnapshots> snapshots_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(ValueSnapshotsTest);
