// Contract: portfolio depth (docs/api.md §23) — holdings per account and applied set,
// departures written and withdrawn by imports, sale prices, forgetting an account, the
// hourly pass over several rows per item, and the migration that carries old holdings.

#include "StoreContract.hpp"

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::test {

namespace {

const std::string kMain = "76561197960287930";
const std::string kStorage = "76561197960287931";

store::AppliedRecord sticker(int slot, std::optional<std::int64_t> item_id,
                             const std::string& name = "Sticker | X") {
  return store::AppliedRecord{"sticker", slot, name, item_id};
}

store::HoldingRecord held(std::int64_t item_id, std::int64_t quantity,
                          std::vector<store::AppliedRecord> applied = {}) {
  store::HoldingRecord holding{item_id, quantity, 0};
  holding.applied = std::move(applied);
  return holding;
}

store::CostChange costChange(std::optional<std::int64_t> cents,
                             std::optional<std::int64_t> acquired) {
  return store::CostChange{true, cents, true, acquired};
}

const store::HoldingRecord* find(const std::vector<store::HoldingRecord>& holdings,
                                 const std::string& account, std::int64_t item_id,
                                 const std::string& applied_key = "") {
  for (const auto& holding : holdings) {
    if (holding.account == account && holding.item_id == item_id &&
        holding.applied_key == applied_key) {
      return &holding;
    }
  }
  return nullptr;
}

}  // namespace

void StoreContract::testHoldingsPerAccountAndApplied() {
  if (skipped()) return;
  seedItems(5);
  auto& holdings = db_->holdings();
  const auto user = db_->users().createUser("p@example.com", "P", "", 1000);

  // Two plain AK units, one with four stickers and a charm (charm given first: the key is
  // canonical whatever the order), one with a sticker the catalogue lacks.
  const std::vector<store::AppliedRecord> crafted{
      {"charm", 0, "Charm | Y", 5}, sticker(0, 4), sticker(1, 4), sticker(2, 4), sticker(3, 3)};
  holdings.replaceHoldings(user.id, kMain,
                           {held(1, 2), held(1, 1, crafted),
                            held(1, 1, {sticker(0, std::nullopt, "Sticker | Gone")}), held(2, 1)},
                           {}, 100);
  holdings.replaceHoldings(user.id, kStorage, {held(1, 7), held(2, 3)}, {}, 150);
  auto all = holdings.holdingsOf(user.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{6}, all.size());
  const auto* fancy = find(all, kMain, 1, "s0=4;s1=4;s2=4;s3=3;c0=5");
  CPPUNIT_ASSERT(fancy != nullptr);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, fancy->quantity);
  CPPUNIT_ASSERT_EQUAL(std::size_t{5}, fancy->applied.size());
  CPPUNIT_ASSERT_EQUAL(std::string("sticker"), fancy->applied.front().kind);  // canonical order
  CPPUNIT_ASSERT((fancy->applied.back() == store::AppliedRecord{"charm", 0, "Charm | Y", 5}));
  const auto* unknown = find(all, kMain, 1, "s0=n:Sticker | Gone");
  CPPUNIT_ASSERT(unknown != nullptr && !unknown->applied.front().item_id);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, find(all, kMain, 1)->quantity);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, find(all, kStorage, 1)->quantity);
  CPPUNIT_ASSERT(all.front().item_id == 1 && all.back().item_id == 2);  // by item
  CPPUNIT_ASSERT_EQUAL(std::int64_t{150}, *holdings.lastImportedAt(user.id));
  CPPUNIT_ASSERT((holdings.importedAtByAccount(user.id) ==
                  std::map<std::string, std::int64_t>{{kMain, 100}, {kStorage, 150}}));

  // A re-import of one account leaves the other alone and keeps the ids of what stays.
  const std::int64_t plain_id = find(all, kMain, 1)->holding_id;
  const std::int64_t storage_id = find(all, kStorage, 1)->holding_id;
  holdings.replaceHoldings(user.id, kMain, {held(1, 3), held(3, 1)}, {}, 200);
  all = holdings.holdingsOf(user.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{4}, all.size());
  CPPUNIT_ASSERT_EQUAL(plain_id, find(all, kMain, 1)->holding_id);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, find(all, kMain, 1)->quantity);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{200}, find(all, kMain, 1)->imported_at);
  CPPUNIT_ASSERT_EQUAL(storage_id, find(all, kStorage, 1)->holding_id);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{150}, find(all, kStorage, 1)->imported_at);
  CPPUNIT_ASSERT(find(all, kMain, 2) == nullptr && find(all, kStorage, 2) != nullptr);

  // A cost basis is per item: every holding of it, every account, gets it.
  const auto changed = holdings.changeCost(user.id, 1, costChange(400, std::nullopt), 210);
  CPPUNIT_ASSERT(changed);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, changed->quantity);  // 3 + 7 combined
  CPPUNIT_ASSERT(changed->account.empty() && changed->applied.empty());
  for (const auto& holding : holdings.holdingsOf(user.id)) {
    if (holding.item_id == 1) CPPUNIT_ASSERT(holding.cost_basis == std::int64_t{400});
  }

  // Forgetting an account deletes its holdings and metadata, nothing else.
  holdings.forgetAccount(user.id, kStorage);
  all = holdings.holdingsOf(user.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, all.size());
  CPPUNIT_ASSERT(find(all, kStorage, 1) == nullptr);
  CPPUNIT_ASSERT(
      (holdings.importedAtByAccount(user.id) == std::map<std::string, std::int64_t>{{kMain, 200}}));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{400}, *find(all, kMain, 1)->cost_basis);
}

void StoreContract::testDeparturesWrittenAndWithdrawn() {
  if (skipped()) return;
  seedItems(3);
  auto& holdings = db_->holdings();
  const auto user = db_->users().createUser("l@example.com", "L", "", 1000);
  const auto other = db_->users().createUser("m@example.com", "M", "", 1000);
  const std::vector<store::AppliedRecord> one_sticker{sticker(0, 3)};

  holdings.replaceHoldings(user.id, kMain, {held(1, 5), held(2, 1, one_sticker)}, {}, 100);
  holdings.changeCost(user.id, 1, costChange(1000, 1'600'000'000), 110);
  CPPUNIT_ASSERT(holdings.departuresOf(user.id).empty());

  // 2 of item 1 and the stickered item 2 leave: two departures, the prices of the import,
  // the cost fields copied.
  holdings.replaceHoldings(user.id, kMain, {held(1, 3)}, {{1, 1234}}, 200);
  auto left = holdings.departuresOf(user.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, left.size());
  const auto ak = left[0].item_id == 1 ? left[0] : left[1];  // a copy: `left` is reassigned
  const auto knife = left[0].item_id == 1 ? left[1] : left[0];
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, ak.quantity);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1234}, ak.last_price);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{200}, ak.left_at);
  CPPUNIT_ASSERT(ak.cost_basis == std::int64_t{1000});
  CPPUNIT_ASSERT(ak.acquired_at == std::int64_t{1'600'000'000});
  CPPUNIT_ASSERT_EQUAL(kMain, ak.account);
  CPPUNIT_ASSERT(!ak.sale_price);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, knife.last_price);  // no price given
  CPPUNIT_ASSERT_EQUAL(std::string("s0=3"), knife.applied_key);
  CPPUNIT_ASSERT((knife.applied == one_sticker));
  CPPUNIT_ASSERT(!knife.cost_basis);

  // A later edit of the cost basis does not rewrite the departure.
  holdings.changeCost(user.id, 1, costChange(5, std::nullopt), 210);
  CPPUNIT_ASSERT(holdings.departuresOf(user.id)[0].cost_basis == std::int64_t{1000} ||
                 holdings.departuresOf(user.id)[1].cost_basis == std::int64_t{1000});

  // A sale price on the AK departure; other users cannot touch it.
  CPPUNIT_ASSERT(!holdings.setSalePrice(other.id, ak.departure_id, 1300, 220));
  CPPUNIT_ASSERT(!holdings.deleteDeparture(other.id, ak.departure_id));
  const auto sold = holdings.setSalePrice(user.id, ak.departure_id, 1300, 220);
  CPPUNIT_ASSERT(sold);
  CPPUNIT_ASSERT(sold->sale_price == std::int64_t{1300});
  CPPUNIT_ASSERT(sold->sale_price_set_at == std::int64_t{220});
  CPPUNIT_ASSERT(!holdings.setSalePrice(user.id, 999999, 1, 220));

  // 1 more AK leaves (a newer departure), then 2 come back: the open (unsold) departure
  // goes first, the sold one stays. The stickered item comes back: its departure goes.
  holdings.replaceHoldings(user.id, kMain, {held(1, 2)}, {{1, 1500}}, 300);
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, holdings.departuresOf(user.id).size());
  CPPUNIT_ASSERT_EQUAL(std::int64_t{300}, holdings.departuresOf(user.id).front().left_at);
  holdings.replaceHoldings(user.id, kMain, {held(1, 4), held(2, 1, one_sticker)}, {}, 400);
  left = holdings.departuresOf(user.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, left.size());
  CPPUNIT_ASSERT_EQUAL(ak.departure_id, left[0].departure_id);
  CPPUNIT_ASSERT(left[0].sale_price == std::int64_t{1300});

  // Only the account the units left: units arriving in another account withdraw nothing.
  holdings.replaceHoldings(user.id, kMain, {held(1, 4)}, {}, 500);  // the knife leaves again
  holdings.replaceHoldings(user.id, kStorage, {held(2, 1, one_sticker)}, {}, 510);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, holdings.departuresOf(user.id).size());

  // Partial withdrawal: 4 leave, 1 comes back → the departure keeps 3.
  holdings.replaceHoldings(user.id, kMain, {}, {}, 600);
  left = holdings.departuresOf(user.id);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, left.front().quantity);
  holdings.replaceHoldings(user.id, kMain, {held(1, 1)}, {}, 700);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, holdings.departuresOf(user.id).front().quantity);

  // Clearing a sale price, deleting a departure; forgetting an account keeps departures.
  const auto cleared = holdings.setSalePrice(user.id, ak.departure_id, std::nullopt, 800);
  CPPUNIT_ASSERT(cleared && !cleared->sale_price && !cleared->sale_price_set_at);
  const auto count = holdings.departuresOf(user.id).size();
  CPPUNIT_ASSERT(holdings.deleteDeparture(user.id, ak.departure_id));
  CPPUNIT_ASSERT(!holdings.deleteDeparture(user.id, ak.departure_id));
  CPPUNIT_ASSERT_EQUAL(count - 1, holdings.departuresOf(user.id).size());
  holdings.forgetAccount(user.id, kMain);
  CPPUNIT_ASSERT_EQUAL(count - 1, holdings.departuresOf(user.id).size());

  // A failing import (unknown item) writes no departure either.
  holdings.replaceHoldings(user.id, kMain, {held(1, 2)}, {}, 900);
  const auto before = holdings.departuresOf(user.id);
  CPPUNIT_ASSERT_THROW(holdings.replaceHoldings(user.id, kMain, {held(99, 1)}, {}, 1000),
                       std::exception);
  CPPUNIT_ASSERT((holdings.departuresOf(user.id) == before));
  CPPUNIT_ASSERT(holdings.departuresOf(other.id).empty());
}

void StoreContract::testSnapshotPassSumsRowsPerItem() {
  if (skipped()) return;
  seedItems(3);
  auto& holdings = db_->holdings();
  const auto user = db_->users().createUser("r@example.com", "R", "", 1000);
  // Item 1 in three rows: two accounts, one with a sticker.
  holdings.replaceHoldings(user.id, kMain, {held(1, 2), held(1, 1, {sticker(0, 3)})}, {}, 100);
  holdings.replaceHoldings(user.id, kStorage, {held(1, 4), held(2, 1)}, {}, 100);
  holdings.changeCost(user.id, 1, costChange(100, std::nullopt), 100);
  db_->snapshots().snapshotAll({1, 2}, {250, 10}, 3600, 3601);
  CPPUNIT_ASSERT((db_->snapshots().snapshotsOf(user.id, 0) ==
                  std::vector<store::SnapshotRecord>{{3600, 3601, 7 * 250 + 10, 7 * 100}}));
  // Item 3, the sticker on one of them, is polled like a held item.
  CPPUNIT_ASSERT((db_->holdings().heldItemIds() == std::vector<std::int64_t>{1, 2, 3}));
}

void StoreContract::testPortfolioDepthMigrationCarriesHoldings() {
  if (skipped()) return;
  // The schema as it was before portfolio depth.
  openSchemaBefore("_portfolio_depth");
  seedItems(2);
  const auto linked = db_->users().createUser("g@example.com", "G", "", 1000);
  const auto unlinked = db_->users().createUser("u@example.com", "U", "", 1000);
  {
    // Plain SQL: today's store writes columns this schema does not have yet.
    auto lease = pool().write();
    lease.session() << "INSERT INTO game_links (user_id, platform_id, linked_at) VALUES ('" +
                           linked.id + "', '" + kMain + "', 500)",
        now;
    lease.session() << "INSERT INTO holdings (user_id, item_id, quantity, imported_at, "
                       "cost_basis) VALUES ('" +
                           linked.id + "', 1, 3, 900, 700), ('" + linked.id +
                           "', 2, 1, 900, NULL), ('" + unlinked.id + "', 2, 4, 950, NULL)",
        now;
    lease.session() << "INSERT INTO holding_costs (user_id, item_id, cost_basis, updated_at) "
                       "VALUES ('" +
                           linked.id + "', 1, 700, 900)",
        now;
    lease.session() << "INSERT INTO import_metadata (user_id, last_imported_at) VALUES ('" +
                           linked.id + "', 900), ('" + unlinked.id + "', 950)",
        now;
  }
  db_.reset();
  db_ = open();
  auto& holdings = db_->holdings();
  auto all = holdings.holdingsOf(linked.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, all.size());
  CPPUNIT_ASSERT_EQUAL(kMain, all[0].account);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, all[0].quantity);
  CPPUNIT_ASSERT(all[0].cost_basis == std::int64_t{700});
  CPPUNIT_ASSERT(all[0].applied_key.empty() && all[0].applied.empty());
  CPPUNIT_ASSERT(all[0].holding_id > 0 && all[1].holding_id > 0 &&
                 all[0].holding_id != all[1].holding_id);
  CPPUNIT_ASSERT((holdings.importedAtByAccount(linked.id) ==
                  std::map<std::string, std::int64_t>{{kMain, 900}}));
  const auto lone = holdings.holdingsOf(unlinked.id);
  CPPUNIT_ASSERT(lone.size() == 1 && lone[0].account.empty());
  CPPUNIT_ASSERT_EQUAL(std::int64_t{950}, *holdings.lastImportedAt(unlinked.id));

  // The hourly pass still reads the carried cost copy; the next import of the account
  // keeps the holding's id and counts no departure for what stays.
  db_->snapshots().snapshotAll({1}, {1000}, 3600, 3601);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2100},
                       db_->snapshots().snapshotsOf(linked.id, 0).front().cost_total);
  const auto id = all[0].holding_id;
  holdings.replaceHoldings(linked.id, kMain, {held(1, 3)}, {}, 2000);
  all = holdings.holdingsOf(linked.id);
  CPPUNIT_ASSERT_EQUAL(id, all[0].holding_id);
  const auto left = holdings.departuresOf(linked.id);
  CPPUNIT_ASSERT(left.size() == 1 && left[0].item_id == 2);
}

}  // namespace skinpulse::test
