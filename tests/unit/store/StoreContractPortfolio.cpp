// Contract: portfolio insight — cost bases across imports, value snapshots (upsert per
// hour, history, pruning, the set-based hourly pass).

#include "StoreContract.hpp"

namespace skinpulse::test {

namespace {

store::CostChange costOf(std::optional<std::int64_t> cents, std::optional<std::int64_t> acquired) {
  return store::CostChange{true, cents, true, acquired};
}

}  // namespace

void StoreContract::testCostBasisAcrossImports() {
  if (skipped()) return;
  seedItems(3);
  auto& holdings = db_->holdings();
  const auto user = db_->users().createUser("c@example.com", "C", "", 1000);
  const auto other = db_->users().createUser("d@example.com", "D", "", 1000);

  // Not held: nothing written, for this user or anybody.
  CPPUNIT_ASSERT(!holdings.changeCost(user.id, 1, costOf(500, std::nullopt), 100));
  holdings.replaceHoldings(user.id, {{1, 2, 0}, {2, 1, 0}}, 100);
  holdings.replaceHoldings(other.id, {{1, 4, 0}}, 100);
  CPPUNIT_ASSERT(!holdings.changeCost(user.id, 3, costOf(500, std::nullopt), 110));

  const auto set = holdings.changeCost(user.id, 1, costOf(1234, 1'700'000'000), 110);
  CPPUNIT_ASSERT(set);
  CPPUNIT_ASSERT((withoutId(*set) == store::HoldingRecord{1, 2, 100, 1234, 1'700'000'000}));
  CPPUNIT_ASSERT(
      (withoutIds(holdings.holdingsOf(user.id)) ==
       std::vector<store::HoldingRecord>{{1, 2, 100, 1234, 1'700'000'000}, {2, 1, 100}}));
  CPPUNIT_ASSERT((withoutIds(holdings.holdingsOf(other.id)) ==
                  std::vector<store::HoldingRecord>{{1, 4, 100}}));

  // A field left out stays; one sent empty is cleared.
  store::CostChange only_cost;
  only_cost.set_cost_basis = true;
  only_cost.cost_basis = 999;
  CPPUNIT_ASSERT((withoutId(*holdings.changeCost(user.id, 1, only_cost, 120)) ==
                  store::HoldingRecord{1, 2, 100, 999, 1'700'000'000}));

  // A re-import keeps the cost basis of a holding that stays, whatever its quantity.
  holdings.replaceHoldings(user.id, {{1, 5, 0}, {2, 1, 0}}, 200);
  CPPUNIT_ASSERT((withoutId(holdings.holdingsOf(user.id).front()) ==
                  store::HoldingRecord{1, 5, 200, 999, 1'700'000'000}));

  // One that leaves and comes back gets it back (docs/adr/0017-portfolio-insight.md).
  holdings.replaceHoldings(user.id, {{2, 1, 0}}, 300);
  CPPUNIT_ASSERT(
      (withoutIds(holdings.holdingsOf(user.id)) == std::vector<store::HoldingRecord>{{2, 1, 300}}));
  CPPUNIT_ASSERT(!holdings.changeCost(user.id, 1, costOf(1, std::nullopt), 310));  // not held
  holdings.replaceHoldings(user.id, {{1, 1, 0}, {2, 1, 0}}, 400);
  CPPUNIT_ASSERT((withoutId(holdings.holdingsOf(user.id).front()) ==
                  store::HoldingRecord{1, 1, 400, 999, 1'700'000'000}));

  // Clearing both fields removes the row; the holding itself stays.
  CPPUNIT_ASSERT((withoutId(*holdings.changeCost(user.id, 1, costOf(std::nullopt, std::nullopt),
                                                 410)) == store::HoldingRecord{1, 1, 400}));
  std::int64_t rows = -1;
  auto lease = pool().read();
  lease.session() << "SELECT COUNT(*) FROM holding_costs", Poco::Data::Keywords::into(rows),
      Poco::Data::Keywords::now;
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, rows);
}

void StoreContract::testSnapshotUpsertHistoryAndPruning() {
  if (skipped()) return;
  auto& snapshots = db_->snapshots();
  const auto user = db_->users().createUser("s@example.com", "S", "", 1000);
  const auto other = db_->users().createUser("t@example.com", "T", "", 1000);
  CPPUNIT_ASSERT(snapshots.snapshotsOf(user.id, 0).empty());

  snapshots.putSnapshot(user.id, {7200, 7300, 1000, 800});
  snapshots.putSnapshot(user.id, {3600, 3700, 900, 800});
  snapshots.putSnapshot(other.id, {3600, 3650, 5, 0});
  // A second snapshot within the same hour replaces the first.
  snapshots.putSnapshot(user.id, {7200, 7500, 1100, 850});
  CPPUNIT_ASSERT(
      (snapshots.snapshotsOf(user.id, 0) ==
       std::vector<store::SnapshotRecord>{{3600, 3700, 900, 800}, {7200, 7500, 1100, 850}}));
  // `since` compares with the time taken, not the hour.
  CPPUNIT_ASSERT((snapshots.snapshotsOf(user.id, 3700) ==
                  std::vector<store::SnapshotRecord>{{7200, 7500, 1100, 850}}));
  CPPUNIT_ASSERT((snapshots.snapshotsOf(user.id, 3699).size() == 2));

  // Pruning goes by hour, across users.
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, snapshots.pruneSnapshots(7200));
  CPPUNIT_ASSERT((snapshots.snapshotsOf(user.id, 0) ==
                  std::vector<store::SnapshotRecord>{{7200, 7500, 1100, 850}}));
  CPPUNIT_ASSERT(snapshots.snapshotsOf(other.id, 0).empty());
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, snapshots.pruneSnapshots(7200));
}

void StoreContract::testSnapshotPassSums() {
  if (skipped()) return;
  seedItems(3);
  auto& holdings = db_->holdings();
  auto& snapshots = db_->snapshots();
  const auto a = db_->users().createUser("a@example.com", "A", "", 1000);
  const auto b = db_->users().createUser("b@example.com", "B", "", 1000);
  const auto idle = db_->users().createUser("i@example.com", "I", "", 1000);
  holdings.replaceHoldings(a.id, {{1, 2, 0}, {2, 3, 0}, {3, 1, 0}}, 100);
  holdings.replaceHoldings(b.id, {{3, 4, 0}}, 100);
  holdings.replaceHoldings(idle.id, {}, 100);
  holdings.changeCost(a.id, 1, costOf(100, std::nullopt), 100);
  holdings.changeCost(a.id, 2, costOf(std::nullopt, 5), 100);  // a date, no cost: counts 0

  // Item 3 has no price: it counts 0 in the value.
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, snapshots.snapshotAll({1, 2}, {250, 10}, 3600, 3601));
  CPPUNIT_ASSERT((snapshots.snapshotsOf(a.id, 0) ==
                  std::vector<store::SnapshotRecord>{{3600, 3601, 2 * 250 + 3 * 10, 2 * 100}}));
  CPPUNIT_ASSERT(
      (snapshots.snapshotsOf(b.id, 0) == std::vector<store::SnapshotRecord>{{3600, 3601, 0, 0}}));
  CPPUNIT_ASSERT(snapshots.snapshotsOf(idle.id, 0).empty());  // holds nothing: no row

  // The same hour again replaces; the price table of the last pass is gone.
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, snapshots.snapshotAll({3}, {7}, 3600, 3650));
  CPPUNIT_ASSERT(
      (snapshots.snapshotsOf(a.id, 0) == std::vector<store::SnapshotRecord>{{3600, 3650, 7, 200}}));
  CPPUNIT_ASSERT(
      (snapshots.snapshotsOf(b.id, 0) == std::vector<store::SnapshotRecord>{{3600, 3650, 28, 0}}));
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, snapshots.snapshotAll({}, {}, 7200, 7201));
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, snapshots.snapshotsOf(a.id, 0).size());

  // The pass's cost_total follows a PATCH, and an item that left and came back.
  holdings.changeCost(a.id, 1, costOf(300, std::nullopt), 7300);
  snapshots.snapshotAll({}, {}, 10800, 10801);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{600}, snapshots.snapshotsOf(a.id, 10000).front().cost_total);
  holdings.replaceHoldings(a.id, {{2, 3, 0}}, 10900);
  snapshots.snapshotAll({}, {}, 10800, 10950);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, snapshots.snapshotsOf(a.id, 10000).front().cost_total);
  holdings.replaceHoldings(a.id, {{1, 5, 0}, {2, 3, 0}}, 11000);
  snapshots.snapshotAll({}, {}, 10800, 11050);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1500}, snapshots.snapshotsOf(a.id, 10000).front().cost_total);
  holdings.changeCost(a.id, 1, costOf(std::nullopt, std::nullopt), 11100);
  snapshots.snapshotAll({}, {}, 10800, 11150);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, snapshots.snapshotsOf(a.id, 10000).front().cost_total);
}

}  // namespace skinpulse::test
