// Contract: several game-platform accounts per user (docs/api.md §23.2): links are added,
// listed oldest first, capped, labelled and removed; the migration that allows several
// keeps every existing link.

#include "StoreContract.hpp"

using Poco::Data::Keywords::now;

namespace skinpulse::test {
namespace {

using LinkResult = store::UserStore::GameLinkResult;

const std::string kLinkedMain = "76561197960287930";
const std::string kLinkedStorage = "76561197960287931";
const std::string kLinkedThird = "76561197960287932";

std::vector<std::string> linkedPlatformIds(const std::vector<store::GameLinkRecord>& links) {
  std::vector<std::string> ids;
  for (const auto& link : links) ids.push_back(link.platform_id);
  return ids;
}

}  // namespace

void StoreContract::testSeveralGameLinksOldestFirst() {
  if (skipped()) return;
  auto& users = db_->users();
  const auto a = users.createUser("a@example.com", "A", "", 1000);
  const auto b = users.createUser("b@example.com", "B", "", 1000);
  CPPUNIT_ASSERT(users.gameLinksOf(a.id).empty());
  CPPUNIT_ASSERT(!users.gameLinkOf(a.id));

  // Added out of platform-id order: the list follows linked_at, the id breaks a tie.
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedStorage, 2000}, 5) == LinkResult::kLinked);
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedThird, 2100}, 5) == LinkResult::kLinked);
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedMain, 2100}, 5) == LinkResult::kLinked);
  CPPUNIT_ASSERT((linkedPlatformIds(users.gameLinksOf(a.id)) ==
                  std::vector<std::string>{kLinkedStorage, kLinkedMain, kLinkedThird}));
  CPPUNIT_ASSERT_EQUAL(kLinkedStorage, users.gameLinkOf(a.id)->platform_id);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2000}, users.gameLinkOf(a.id)->linked_at);
  CPPUNIT_ASSERT(users.gameLinksOf(b.id).empty());

  // The same id again is no change (linked_at kept); another user's id is refused.
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedStorage, 3000}, 5) == LinkResult::kAlreadyLinked);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2000}, users.gameLinkByPlatformId(kLinkedStorage)->linked_at);
  CPPUNIT_ASSERT(users.addGameLink({b.id, kLinkedStorage, 3000}, 5) == LinkResult::kOtherUser);
  CPPUNIT_ASSERT(users.gameLinksOf(b.id).empty());
  const auto found = users.gameLinkByPlatformId(kLinkedMain);
  CPPUNIT_ASSERT(found);
  CPPUNIT_ASSERT_EQUAL(a.id, found->user_id);
  CPPUNIT_ASSERT_EQUAL(std::string(), found->label);
  CPPUNIT_ASSERT(!users.gameLinkByPlatformId("76561197960287939"));
}

void StoreContract::testGameLinkCapLabelAndUnlink() {
  if (skipped()) return;
  auto& users = db_->users();
  const auto a = users.createUser("a@example.com", "A", "", 1000);
  const auto b = users.createUser("b@example.com", "B", "", 1000);
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedMain, 2000}, 2) == LinkResult::kLinked);
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedStorage, 2100}, 2) == LinkResult::kLinked);
  // At the cap: a third is refused, but an id the user holds is still a no-op success.
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedThird, 2200}, 2) == LinkResult::kTooManyAccounts);
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedMain, 2200}, 2) == LinkResult::kAlreadyLinked);
  CPPUNIT_ASSERT(!users.gameLinkByPlatformId(kLinkedThird));
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, users.gameLinksOf(a.id).size());

  const auto labelled = users.labelGameId(a.id, kLinkedStorage, "storage ✓");
  CPPUNIT_ASSERT(labelled);
  CPPUNIT_ASSERT_EQUAL(std::string("storage ✓"), labelled->label);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2100}, labelled->linked_at);
  CPPUNIT_ASSERT_EQUAL(std::string("storage ✓"), users.gameLinksOf(a.id)[1].label);
  CPPUNIT_ASSERT_EQUAL(std::string(), users.gameLinksOf(a.id)[0].label);
  CPPUNIT_ASSERT(!users.labelGameId(b.id, kLinkedStorage, "mine"));  // not b's
  CPPUNIT_ASSERT(!users.labelGameId(a.id, kLinkedThird, "none"));    // not linked at all
  CPPUNIT_ASSERT_EQUAL(std::string("storage ✓"), users.gameLinkByPlatformId(kLinkedStorage)->label);

  CPPUNIT_ASSERT(!users.unlinkGameId(b.id, kLinkedMain));  // another user's link stays
  CPPUNIT_ASSERT(users.unlinkGameId(a.id, kLinkedMain));
  CPPUNIT_ASSERT(!users.unlinkGameId(a.id, kLinkedMain));  // gone already
  CPPUNIT_ASSERT(
      (linkedPlatformIds(users.gameLinksOf(a.id)) == std::vector<std::string>{kLinkedStorage}));
  CPPUNIT_ASSERT_EQUAL(kLinkedStorage, users.gameLinkOf(a.id)->platform_id);  // now the oldest
  // Below the cap again, and the freed id may go to anyone.
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedThird, 2300}, 2) == LinkResult::kLinked);
  CPPUNIT_ASSERT(users.addGameLink({b.id, kLinkedMain, 2400}, 2) == LinkResult::kLinked);
}

// docs/api.md §23.2: an unlink takes the account's holdings and import metadata along in
// its own transaction, and an import of an account no longer linked writes nothing.
void StoreContract::testUnlinkTakesTheAccountsHoldingsAlong() {
  if (skipped()) return;
  seedItems(3);
  auto& users = db_->users();
  auto& holdings = db_->holdings();
  const auto a = users.createUser("a@example.com", "A", "", 1000);
  const auto b = users.createUser("b@example.com", "B", "", 1000);
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedMain, 2000}, 5) == LinkResult::kLinked);
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedStorage, 2100}, 5) == LinkResult::kLinked);
  CPPUNIT_ASSERT(
      holdings.replaceLinkedHoldings(a.id, kLinkedMain, {{1, 3, 0}, {2, 1, 0}}, {}, 100));
  CPPUNIT_ASSERT(holdings.replaceLinkedHoldings(a.id, kLinkedStorage, {{1, 5, 0}}, {}, 110));
  // Item 2 leaves the main account: a departure, which outlives the unlink.
  CPPUNIT_ASSERT(holdings.replaceLinkedHoldings(a.id, kLinkedMain, {{1, 3, 0}}, {{2, 700}}, 120));
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, holdings.departuresOf(a.id).size());

  // Accounts that are not (or not this user's) links: refused, nothing written.
  CPPUNIT_ASSERT(!holdings.replaceLinkedHoldings(a.id, kLinkedThird, {{3, 1, 0}}, {}, 130));
  CPPUNIT_ASSERT(!holdings.replaceLinkedHoldings(b.id, kLinkedStorage, {{3, 1, 0}}, {}, 130));
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, holdings.holdingsOf(a.id).size());
  CPPUNIT_ASSERT(holdings.holdingsOf(b.id).empty());
  CPPUNIT_ASSERT(holdings.importedAtByAccount(b.id).empty());

  CPPUNIT_ASSERT(!users.unlinkGameId(b.id, kLinkedMain));  // not b's: a's holdings stay
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, holdings.holdingsOf(a.id).size());
  CPPUNIT_ASSERT(users.unlinkGameId(a.id, kLinkedMain));
  const auto left = holdings.holdingsOf(a.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, left.size());
  CPPUNIT_ASSERT_EQUAL(kLinkedStorage, left[0].account);
  CPPUNIT_ASSERT((holdings.importedAtByAccount(a.id) ==
                  std::map<std::string, std::int64_t>{{kLinkedStorage, 110}}));
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, holdings.departuresOf(a.id).size());

  // An import of the unlinked account that finishes afterwards writes nothing back.
  CPPUNIT_ASSERT(!holdings.replaceLinkedHoldings(a.id, kLinkedMain, {{1, 9, 0}}, {}, 140));
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, holdings.holdingsOf(a.id).size());
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, holdings.departuresOf(a.id).size());
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, holdings.importedAtByAccount(a.id).size());
}

void StoreContract::testGameLinksMigrationKeepsLinks() {
  if (skipped()) return;
  // The schema as it was with one link per user: every migration before the one that
  // allows several.
  openSchemaBefore("_game_links_accounts");
  const auto a = db_->users().createUser("a@example.com", "A", "", 1000);
  const auto b = db_->users().createUser("b@example.com", "B", "", 1000);
  {
    // Plain SQL: the store of today reads a label column this older schema lacks.
    auto lease = pool().write();
    lease.session() << "INSERT INTO game_links (user_id, platform_id, linked_at) VALUES ('" + a.id +
                           "', '" + kLinkedMain + "', 1500), ('" + b.id + "', '" + kLinkedStorage +
                           "', 1600)",
        now;
  }
  db_.reset();
  db_ = open();  // applies the migration
  auto& users = db_->users();
  const auto links = users.gameLinksOf(a.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, links.size());
  CPPUNIT_ASSERT_EQUAL(kLinkedMain, links[0].platform_id);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1500}, links[0].linked_at);
  CPPUNIT_ASSERT_EQUAL(std::string(), links[0].label);
  CPPUNIT_ASSERT_EQUAL(b.id, users.gameLinkByPlatformId(kLinkedStorage)->user_id);
  // Now several per user, and still one user per platform id.
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedThird, 1700}, 5) == LinkResult::kLinked);
  CPPUNIT_ASSERT(users.addGameLink({a.id, kLinkedStorage, 1700}, 5) == LinkResult::kOtherUser);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, users.gameLinksOf(a.id).size());
}

}  // namespace skinpulse::test
