// Contract: price history.

#include "StoreContract.hpp"

#include <iostream>

namespace skinpulse::test {
namespace {

store::PricePoint point(std::int64_t item, const std::string& source, std::int64_t time,
                        std::int64_t price = 100, std::int64_t volume = 1) {
  return store::PricePoint{item, source, time, price, volume};
}

std::vector<std::int64_t> timesOf(const std::vector<store::PricePoint>& points) {
  std::vector<std::int64_t> times;
  for (const auto& p : points) times.push_back(p.time);
  return times;
}

}  // namespace

void StoreContract::testPriceInsertIgnoresDuplicates() {
  if (skipped()) return;
  seedItems(2);
  auto& prices = db_->prices();
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, prices.insert({}));
  // The same observation twice in one batch, then again in the next: stored once, and
  // the first one wins.
  CPPUNIT_ASSERT_EQUAL(std::size_t{2},
                       prices.insert({point(1, "steam", 100, 500), point(1, "steam", 100, 999),
                                      point(2, "steam", 100, 700)}));
  CPPUNIT_ASSERT_EQUAL(std::size_t{1},
                       prices.insert({point(1, "steam", 100, 111), point(1, "steam", 160, 510)}));
  const auto history = prices.history(1, 0, std::nullopt);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, history.size());
  CPPUNIT_ASSERT(history[0] == point(1, "steam", 100, 500));
  CPPUNIT_ASSERT(history[1] == point(1, "steam", 160, 510));
}

// docs/api.md §12: the flag is stored with the point, read back on every path, cleared by
// key when the next point confirms it; the latest prices carry the newest unflagged price.
void StoreContract::testOutlierFlagRoundTripAndClear() {
  if (skipped()) return;
  seedItems(2);
  auto& prices = db_->prices();
  auto flagged = [](store::PricePoint p) {
    p.outlier = true;
    return p;
  };
  const std::vector<store::PricePoint> points = {point(1, "a", 100, 1000, 0),
                                                 flagged(point(1, "a", 200, 18, 0)),
                                                 flagged(point(1, "b", 150, 9000, 0))};
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, prices.insert(points));
  const auto history = prices.history(1, 0, std::nullopt);
  CPPUNIT_ASSERT(history == std::vector<store::PricePoint>({points[0], points[2], points[1]}));
  CPPUNIT_ASSERT(prices.pointsSince(0) == points);
  auto latest = prices.latestPerItemSource();
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, latest.size());
  CPPUNIT_ASSERT(latest[0].newest == points[1]);
  CPPUNIT_ASSERT(latest[0].trusted_price == std::int64_t{1000});
  CPPUNIT_ASSERT(!latest[1].trusted_price);  // b has no unflagged point
  prices.clearOutliers({points[2]});
  CPPUNIT_ASSERT(!prices.history(1, 0, std::string("b")).at(0).outlier);
  latest = prices.latestPerItemSource();
  CPPUNIT_ASSERT(latest[1].trusted_price == std::int64_t{9000});
  CPPUNIT_ASSERT(prices.history(1, 0, std::string("a")).at(1).outlier);
  // Backfill goes through COPY on PostgreSQL as well.
  prices.insertBackfill({flagged(point(2, "c", 50, 70, 0))});
  CPPUNIT_ASSERT(prices.history(2, 0, std::string("c")).at(0).outlier);
}

void StoreContract::testKindAndListingsRoundTrip() {
  if (skipped()) return;
  seedItems(2);
  auto& prices = db_->prices();
  auto with = [](store::PricePoint p, sdk::PriceKind kind, std::optional<std::int64_t> listings) {
    p.kind = kind;
    p.listings = listings;
    return p;
  };
  const std::vector<store::PricePoint> points = {
      with(point(1, "a", 100, 500, 0), sdk::PriceKind::kAsk, 311),
      with(point(1, "a", 200, 480, 3), sdk::PriceKind::kBid, std::nullopt),
      with(point(1, "b", 150, 490, 9), sdk::PriceKind::kSale, 0),
      with(point(2, "a", 120, 700, 1), sdk::PriceKind::kReference, std::int64_t{1} << 40)};
  CPPUNIT_ASSERT_EQUAL(std::size_t{4}, prices.insert(points));
  // Every read path: history (libpq binary on PostgreSQL), pointsSince, scanSince,
  // latestPerItemSource, newestBefore.
  const auto history = prices.history(1, 0, std::nullopt);
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, history.size());
  CPPUNIT_ASSERT(history[0] == points[0]);
  CPPUNIT_ASSERT(history[1] == points[2]);
  CPPUNIT_ASSERT(history[2] == points[1]);
  CPPUNIT_ASSERT(prices.history(2, 0, std::string("a")).at(0) == points[3]);
  const auto all = prices.pointsSince(0);  // item, source, time
  CPPUNIT_ASSERT(all ==
                 std::vector<store::PricePoint>({points[0], points[1], points[2], points[3]}));
  std::vector<store::PricePoint> scanned;
  prices.scanSince(0, 2, [&](const std::vector<store::PricePoint>& chunk) {
    scanned.insert(scanned.end(), chunk.begin(), chunk.end());
  });
  CPPUNIT_ASSERT(scanned == all);
  const auto latest = prices.latestPerItemSource();
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, latest.size());
  CPPUNIT_ASSERT(latest[0].newest == points[1]);
  CPPUNIT_ASSERT(latest[2].newest == points[3]);
  CPPUNIT_ASSERT(prices.newestBefore(1000).at(0) == points[1]);
  // Backfill goes through COPY on PostgreSQL as well.
  CPPUNIT_ASSERT_EQUAL(std::size_t{1},
                       prices.insertBackfill({with(point(2, "c", 50), sdk::PriceKind::kBid, 4)}));
  CPPUNIT_ASSERT(prices.history(2, 0, std::string("c")).at(0).listings == std::int64_t{4});
}

void StoreContract::testBackfillAdvancesRevision() {
  if (skipped()) return;
  seedItems(1);
  auto& prices = db_->prices();
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, prices.backfillRevision());
  prices.insert({point(1, "steam", 100)});  // a daemon cycle: not a backfill
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, prices.backfillRevision());
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.insertBackfill({point(1, "old", 50)}));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, prices.backfillRevision());
  std::vector<store::PricePoint> large;
  for (std::int64_t t = 1; t <= 1500; ++t) large.push_back(point(1, "bulk", t));
  prices.insertBackfill(large);  // the COPY path on PostgreSQL
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, prices.backfillRevision());
  // A failed backfill leaves the revision where it was.
  CPPUNIT_ASSERT_THROW(prices.insertBackfill({point(1, "x", 1), point(99, "x", 1)}),
                       std::exception);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, prices.backfillRevision());
}

// PriceStore::openBackfill: chunks into one transaction (SQLite: prepared multi-row
// INSERTs, PostgreSQL: one COPY), first observation of a key wins, stored points kept,
// confirmed flags cleared, the revision advanced once; abandoned or failed: nothing.
void StoreContract::testStreamedBackfill() {
  if (skipped()) return;
  seedItems(3);
  auto& prices = db_->prices();
  store::PricePoint spike = point(1, "a", 10, 999, 0);
  spike.outlier = true;
  prices.insert({spike});
  {
    auto writer = prices.openBackfill();
    std::vector<store::PricePoint> chunk;
    for (std::int64_t t = 100; t < 400; ++t) chunk.push_back(point(1 + t % 3, "bulk", t, t));
    chunk.push_back(point(1, "a", 10, 5));  // already stored: kept as stored
    writer->add(chunk);
    writer->add({point(2, "bulk", 100, 7777), point(3, "solo", 5, 50)});  // first wins
    writer->clearOutliers({point(1, "a", 10)});
    CPPUNIT_ASSERT_EQUAL(std::size_t{301}, writer->finish());
  }
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, prices.backfillRevision());
  const auto item2 = prices.history(2, 0, std::string("bulk"));
  CPPUNIT_ASSERT_EQUAL(std::size_t{100}, item2.size());
  CPPUNIT_ASSERT_EQUAL(std::int64_t{100}, item2.at(0).price);
  const auto a = prices.history(1, 0, std::string("a")).at(0);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{999}, a.price);
  CPPUNIT_ASSERT(!a.outlier);
  {
    auto abandoned = prices.openBackfill();
    abandoned->add({point(3, "gone", 1)});
  }
  {
    auto refused = prices.openBackfill();
    CPPUNIT_ASSERT_THROW(
        {
          refused->add({point(3, "gone", 2), point(99, "gone", 2)});
          refused->finish();
        },
        std::exception);
  }
  CPPUNIT_ASSERT(prices.history(3, 0, std::string("gone")).empty());
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, prices.backfillRevision());
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.insert({point(3, "after", 1)}));  // still usable
}

void StoreContract::testItemNames() {
  if (skipped()) return;
  seedItems(3);
  const auto names = db_->catalog().itemNames();
  const auto all = db_->catalog().allItems();
  CPPUNIT_ASSERT_EQUAL(all.size(), names.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    CPPUNIT_ASSERT_EQUAL(all[i].id, names[i].id);
    CPPUNIT_ASSERT_EQUAL(all[i].market_hash_name, names[i].market_hash_name);
  }
}

void StoreContract::testFailedBatchStoresNothing() {
  if (skipped()) return;
  seedItems(1);
  auto& prices = db_->prices();
  // Item 99 does not exist: the foreign key refuses the batch, all of it.
  CPPUNIT_ASSERT_THROW(
      prices.insert({point(1, "steam", 100), point(1, "steam", 160), point(99, "steam", 100)}),
      std::exception);
  CPPUNIT_ASSERT(prices.history(1, 0, std::nullopt).empty());
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.insert({point(1, "steam", 100)}));  // still usable
}

// A cycle-sized batch takes the bulk path (COPY on PostgreSQL): same semantics.
void StoreContract::testLargeBatchDedupesAndRoundTrips() {
  if (skipped()) return;
  seedItems(2);
  auto& prices = db_->prices();
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.insert({point(1, "a\tb\\c\nd", 7, 111)}));
  std::vector<store::PricePoint> batch;
  for (std::int64_t t = 1; t <= 2500; ++t) batch.push_back(point(2, "steam", t, 1000 + t));
  batch.push_back(point(2, "steam", 5, 999999));    // duplicate inside the batch
  batch.push_back(point(1, "a\tb\\c\nd", 7, 222));  // already stored
  batch.push_back(point(1, "a\tb\\c\nd", 8, 333));  // escaped characters, new
  CPPUNIT_ASSERT_EQUAL(std::size_t{2501}, prices.insert(batch));
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, prices.insert(batch));
  const auto odd = prices.history(1, 0, std::nullopt);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, odd.size());
  CPPUNIT_ASSERT(odd[0] == point(1, "a\tb\\c\nd", 7, 111));  // the first observation wins
  CPPUNIT_ASSERT(odd[1] == point(1, "a\tb\\c\nd", 8, 333));
  const auto steam = prices.history(2, 0, std::string("steam"));
  CPPUNIT_ASSERT_EQUAL(std::size_t{2500}, steam.size());
  CPPUNIT_ASSERT_EQUAL(INT64_C(1005), steam[4].price);  // not the in-batch duplicate
  // A bulk batch naming a missing item fails whole, like a small one.
  std::vector<store::PricePoint> bad = batch;
  bad.push_back(point(99, "steam", 1));
  for (auto& p : bad) p.time += 10000;
  CPPUNIT_ASSERT_THROW(prices.insert(bad), std::exception);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2500}, prices.history(2, 0, std::string("steam")).size());
}

void StoreContract::testHistoryOrderAndSourceFilter() {
  if (skipped()) return;
  seedItems(2);
  auto& prices = db_->prices();
  prices.insert({point(1, "steam_market", 300), point(1, "csfloat", 300), point(1, "skinport", 100),
                 point(1, "steam_market", 200), point(2, "skinport", 250),
                 point(1, "csfloat", 50)});
  const auto all = prices.history(1, 50, std::nullopt);  // time > since, strictly
  CPPUNIT_ASSERT_EQUAL(std::size_t{4}, all.size());
  CPPUNIT_ASSERT(all[0] == point(1, "skinport", 100));
  CPPUNIT_ASSERT(all[1] == point(1, "steam_market", 200));
  CPPUNIT_ASSERT(all[2] == point(1, "csfloat", 300));
  CPPUNIT_ASSERT(all[3] == point(1, "steam_market", 300));

  const auto steam = prices.history(1, 0, std::string("steam_market"));
  CPPUNIT_ASSERT((timesOf(steam) == std::vector<std::int64_t>{200, 300}));
  CPPUNIT_ASSERT(prices.history(1, 0, std::string("nowhere")).empty());
  CPPUNIT_ASSERT(prices.history(3, 0, std::nullopt).empty());

  const std::vector<std::string> sources{"csfloat", "skinport", "steam_market"};
  CPPUNIT_ASSERT(prices.sourceNames() == sources);
}

void StoreContract::testLatestPerItemSource() {
  if (skipped()) return;
  seedItems(2);
  auto& prices = db_->prices();
  CPPUNIT_ASSERT(prices.latestPerItemSource().empty());
  prices.insert({point(1, "a", 10, 1), point(1, "a", 30, 3), point(1, "a", 20, 2),
                 point(1, "b", 15, 7), point(2, "a", 5, 9)});
  const auto latest = prices.latestPerItemSource();
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, latest.size());
  CPPUNIT_ASSERT(latest[0].newest == point(1, "a", 30, 3));
  CPPUNIT_ASSERT(latest[0].previous_time == std::optional<std::int64_t>(20));
  CPPUNIT_ASSERT(latest[1].newest == point(1, "b", 15, 7));
  CPPUNIT_ASSERT(!latest[1].previous_time);
  CPPUNIT_ASSERT(latest[2].newest == point(2, "a", 5, 9));
  CPPUNIT_ASSERT(!latest[2].previous_time);
}

void StoreContract::testDeleteOlderThanAndPointsSince() {
  if (skipped()) return;
  seedItems(2);
  auto& prices = db_->prices();
  prices.insert({point(2, "a", 100), point(1, "b", 200), point(1, "a", 300), point(1, "a", 50),
                 point(2, "a", 400)});
  // (2, a) keeps 100: its next point, 400, is after the reference time 350.
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.deleteOlderThan(200, 350, 1));     // the oldest, 50
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, prices.deleteOlderThan(200, 350, 1000));  // 100 stays
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.deleteOlderThan(200, 400, 1000));  // now 100 goes
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, prices.deleteOlderThan(200, 400, 1000));
  const auto rest = prices.pointsSince(0);
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, rest.size());
  CPPUNIT_ASSERT(rest[0] == point(1, "a", 300));  // item, source, time
  CPPUNIT_ASSERT(rest[1] == point(1, "b", 200));
  CPPUNIT_ASSERT(rest[2] == point(2, "a", 400));
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.pointsSince(300).size());
}

// Retention at 30 days, the 7d window's reference at now - 7d: a series that did not
// trade for 40 days keeps its last point (the p_ref of its 7d percent_change), one that
// traded since loses its old points; newestBefore() finds each series' reference.
void StoreContract::testRetentionKeepsEachSeriesReference() {
  if (skipped()) return;
  seedItems(2);
  constexpr std::int64_t kDay = 86400, kNow = 100 * kDay;
  auto& prices = db_->prices();
  prices.insert({point(1, "a", kNow - 45 * kDay, 10), point(1, "a", kNow - 40 * kDay, 20),
                 point(1, "a", kNow - 2 * kDay, 30), point(2, "a", kNow - 50 * kDay, 40),
                 point(2, "a", kNow - 35 * kDay, 50), point(2, "a", kNow - 10 * kDay, 60),
                 point(2, "b", kNow - 60 * kDay, 70)});
  CPPUNIT_ASSERT_EQUAL(std::size_t{3},
                       prices.deleteOlderThan(kNow - 30 * kDay, kNow - 7 * kDay, 100));
  const auto rest = prices.pointsSince(0);
  CPPUNIT_ASSERT_EQUAL(std::size_t{4}, rest.size());
  CPPUNIT_ASSERT(rest[0] == point(1, "a", kNow - 40 * kDay, 20));  // 1/a's reference
  CPPUNIT_ASSERT(rest[1] == point(1, "a", kNow - 2 * kDay, 30));
  CPPUNIT_ASSERT(rest[2] == point(2, "a", kNow - 10 * kDay, 60));  // 50 and 40 are not needed
  CPPUNIT_ASSERT(rest[3] == point(2, "b", kNow - 60 * kDay, 70));  // alone: kept
  const auto references = prices.newestBefore(kNow - 8 * kDay + 1);
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, references.size());
  CPPUNIT_ASSERT(references[0] == point(1, "a", kNow - 40 * kDay, 20));
  CPPUNIT_ASSERT(references[1] == point(2, "a", kNow - 10 * kDay, 60));
  CPPUNIT_ASSERT(references[2] == point(2, "b", kNow - 60 * kDay, 70));
}

// The metrics engine's start-up read: every point after `since`, in key order, in chunks
// no larger than asked, the page boundaries falling inside a series and between sources.
void StoreContract::testScanSinceInChunks() {
  if (skipped()) return;
  seedItems(3);
  auto& prices = db_->prices();
  std::vector<store::PricePoint> points;
  for (std::int64_t t = 1; t <= 7; ++t) {
    points.push_back(point(2, "b", 100 + t, t));
    points.push_back(point(2, "a", 100 + t, 10 + t));
    points.push_back(point(1, "b", 100 + t, 20 + t));
  }
  points.push_back(point(3, "a", 50));  // not after `since`
  prices.insert(points);
  const auto expected = prices.pointsSince(100);
  CPPUNIT_ASSERT_EQUAL(std::size_t{21}, expected.size());
  for (const std::size_t chunk :
       {std::size_t{1}, std::size_t{4}, std::size_t{7}, std::size_t{21}, std::size_t{1000}}) {
    std::vector<store::PricePoint> seen;
    std::size_t calls = 0;
    prices.scanSince(100, chunk, [&](const std::vector<store::PricePoint>& part) {
      CPPUNIT_ASSERT(!part.empty());
      CPPUNIT_ASSERT(part.size() <= chunk);
      seen.insert(seen.end(), part.begin(), part.end());
      ++calls;
    });
    CPPUNIT_ASSERT(seen == expected);
    CPPUNIT_ASSERT_EQUAL((expected.size() + chunk - 1) / chunk, calls);
  }
  std::size_t calls = 0;
  prices.scanSince(1000, 10, [&](const std::vector<store::PricePoint>&) { ++calls; });
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, calls);
}

}  // namespace skinpulse::test
