// Contract: users, identities, game links, holdings, and concurrent use (several game
// links per user: StoreContractGameLinks.cpp).

#include "StoreContract.hpp"

#include <atomic>
#include <regex>
#include <thread>

namespace skinpulse::test {

void StoreContract::testUsersByEmailIgnoringCase() {
  if (skipped()) return;
  auto& users = db_->users();
  const auto alice = users.createUser("Alice@Example.com", "Alice", "https://a/1.png", 1000);
  const auto steam_only = users.createUser("", "Gamer", "", 1001);
  static const std::regex kUuidV4(
      "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  CPPUNIT_ASSERT_MESSAGE(alice.id, std::regex_match(alice.id, kUuidV4));
  CPPUNIT_ASSERT(alice.id != steam_only.id);

  const auto found = users.findUserByEmail("alice@EXAMPLE.COM");
  CPPUNIT_ASSERT(found);
  CPPUNIT_ASSERT_EQUAL(alice.id, found->id);
  CPPUNIT_ASSERT_EQUAL(std::string("Alice@Example.com"), found->email);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1000}, found->created_at);
  CPPUNIT_ASSERT(!users.findUserByEmail("bob@example.com"));
  CPPUNIT_ASSERT(!users.findUserByEmail(""));  // accounts without e-mail never match

  users.updateProfile(alice.id, "Alice A.", "https://a/2.png");
  const auto updated = users.findUser(alice.id);
  CPPUNIT_ASSERT_EQUAL(std::string("Alice A."), updated->display_name);
  CPPUNIT_ASSERT_EQUAL(std::string("https://a/2.png"), updated->avatar_url);
  CPPUNIT_ASSERT(!users.findUser("not-a-uuid"));
}

void StoreContract::testIdentityUpsert() {
  if (skipped()) return;
  auto& users = db_->users();
  const auto a = users.createUser("a@example.com", "A", "", 1000);
  const auto b = users.createUser("b@example.com", "B", "", 1000);
  users.upsertIdentity({"idp-a", "10769150350006150715", a.id, "a@example.com", 1100});
  users.upsertIdentity({"idp-b", "42", a.id, "a@example.com", 1200});
  // The same (provider, subject) again: refreshed in place, created_at kept.
  users.upsertIdentity({"idp-a", "10769150350006150715", b.id, "b@example.com", 1300});

  const auto identity = users.findIdentity("idp-a", "10769150350006150715");
  CPPUNIT_ASSERT(identity);
  CPPUNIT_ASSERT_EQUAL(b.id, identity->user_id);
  CPPUNIT_ASSERT_EQUAL(std::string("b@example.com"), identity->email);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1100}, identity->created_at);
  CPPUNIT_ASSERT(!users.findIdentity("idp-b", "10769150350006150715"));

  const auto of_a = users.identitiesOf(a.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, of_a.size());
  CPPUNIT_ASSERT_EQUAL(std::string("idp-b"), of_a[0].provider);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, users.identitiesOf(b.id).size());
}

void StoreContract::testLinkGameIdRefusesAnotherUsersId() {
  if (skipped()) return;
  auto& users = db_->users();
  const auto a = users.createUser("a@example.com", "A", "", 1000);
  const auto b = users.createUser("b@example.com", "B", "", 1000);
  const std::string id = "76561197960287930";
  CPPUNIT_ASSERT(users.linkGameId({a.id, id, 2000}));
  CPPUNIT_ASSERT(!users.linkGameId({b.id, id, 2100}));
  CPPUNIT_ASSERT_EQUAL(a.id, users.gameLinkByPlatformId(id)->user_id);
  CPPUNIT_ASSERT(!users.gameLinkOf(b.id));

  CPPUNIT_ASSERT(users.linkGameId({a.id, id, 2200}));  // same pair: a no-op success
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2000}, users.gameLinkOf(a.id)->linked_at);

  CPPUNIT_ASSERT(users.linkGameId({a.id, "76561197960287931", 2300}));  // a second account
  CPPUNIT_ASSERT_EQUAL(a.id, users.gameLinkByPlatformId(id)->user_id);
  CPPUNIT_ASSERT_EQUAL(id, users.gameLinkOf(a.id)->platform_id);  // the oldest
  CPPUNIT_ASSERT(users.unlinkGameId(a.id, id));
  CPPUNIT_ASSERT(users.linkGameId({b.id, id, 2400}));  // released, so b may take it
  CPPUNIT_ASSERT_EQUAL(b.id, users.gameLinkByPlatformId(id)->user_id);
}

void StoreContract::testReplaceHoldings() {
  if (skipped()) return;
  seedItems(3);
  auto& holdings = db_->holdings();
  const auto user = db_->users().createUser("h@example.com", "H", "", 1000);
  const auto other = db_->users().createUser("o@example.com", "O", "", 1000);
  CPPUNIT_ASSERT(holdings.holdingsOf(user.id).empty());
  CPPUNIT_ASSERT(!holdings.lastImportedAt(user.id));

  holdings.replaceHoldings(user.id, {{2, 5, 0}, {1, 2, 0}}, 100);
  holdings.replaceHoldings(other.id, {{1, 9, 0}}, 150);
  CPPUNIT_ASSERT((withoutIds(holdings.holdingsOf(user.id)) ==
                  std::vector<store::HoldingRecord>{{1, 2, 100}, {2, 5, 100}}));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{100}, *holdings.lastImportedAt(user.id));
  CPPUNIT_ASSERT((holdings.heldItemIds() == std::vector<std::int64_t>{1, 2}));  // once each

  // Item 1 is no longer held, 2 changes, 3 is new; the other user is untouched.
  holdings.replaceHoldings(user.id, {{2, 7, 0}, {3, 1, 0}}, 200);
  const std::vector<store::HoldingRecord> expected{{2, 7, 200}, {3, 1, 200}};
  CPPUNIT_ASSERT(withoutIds(holdings.holdingsOf(user.id)) == expected);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{200}, *holdings.lastImportedAt(user.id));
  CPPUNIT_ASSERT((withoutIds(holdings.holdingsOf(other.id)) ==
                  std::vector<store::HoldingRecord>{{1, 9, 150}}));
  CPPUNIT_ASSERT((holdings.heldItemIds() == std::vector<std::int64_t>{1, 2, 3}));

  // A failing import (unknown item) changes nothing at all.
  CPPUNIT_ASSERT_THROW(holdings.replaceHoldings(user.id, {{1, 1, 0}, {99, 1, 0}}, 300),
                       std::exception);
  CPPUNIT_ASSERT(withoutIds(holdings.holdingsOf(user.id)) == expected);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{200}, *holdings.lastImportedAt(user.id));

  holdings.replaceHoldings(user.id, {}, 400);  // an empty inventory empties the portfolio
  CPPUNIT_ASSERT(holdings.holdingsOf(user.id).empty());
  CPPUNIT_ASSERT_EQUAL(std::int64_t{400}, *holdings.lastImportedAt(user.id));
}

void StoreContract::testConcurrentReadersAndWriter() {
  if (skipped()) return;
  seedItems(10);
  std::atomic<bool> writing{true};
  std::atomic<int> failures{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&, t] {
      try {
        while (writing) {
          db_->catalog().findById(1 + t);
          db_->prices().history(1 + t, 0, std::nullopt);
        }
      } catch (const std::exception&) {
        ++failures;
      }
    });
  }
  std::size_t stored = 0;
  for (std::int64_t cycle = 0; cycle < 50; ++cycle) {
    std::vector<store::PricePoint> batch;
    for (std::int64_t item = 1; item <= 10; ++item) batch.push_back({item, "steam", cycle, 100, 1});
    stored += db_->prices().insert(batch);
  }
  writing = false;
  for (auto& reader : readers) reader.join();
  CPPUNIT_ASSERT_EQUAL(0, failures.load());
  CPPUNIT_ASSERT_EQUAL(std::size_t{500}, stored);
  CPPUNIT_ASSERT_EQUAL(std::size_t{50}, db_->prices().history(10, -1, std::nullopt).size());
}

}  // namespace skinpulse::test
