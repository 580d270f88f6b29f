// Contract: the bulk paths at production size. The full CS2 catalogue and a large
// inventory import go through multi-row statements; on PostgreSQL those must stay
// within what libpq accepts for one statement's parameters (store/BatchInsert.hpp).

#include "StoreContract.hpp"
#include "catalog/CatalogFile.hpp"

#include <map>

namespace skinpulse::test {

void StoreContract::testFullCatalogueAndLargeImport() {
  if (skipped()) return;
  const auto entries =
      catalog::readCatalogFile(std::string(SKINPULSE_SHARE_DIR) + "/catalog/items.jsonl");
  CPPUNIT_ASSERT_EQUAL(std::size_t{37228},
                       entries.size());  // 36,494 base names + 734 variant lines

  auto& catalog = db_->catalog();
  const auto first = catalog.seed(entries, 1000);
  CPPUNIT_ASSERT_EQUAL(entries.size(), first.inserted);
  const auto items = catalog.allItems();
  CPPUNIT_ASSERT_EQUAL(entries.size(), items.size());
  for (std::size_t i = 0; i < items.size(); i += 997) {  // names byte for byte, ids in order
    CPPUNIT_ASSERT_EQUAL(static_cast<std::int64_t>(i + 1), items[i].id);
    CPPUNIT_ASSERT_EQUAL(entries[i].market_hash_name, items[i].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(entries[i].image_url, items[i].image_url);
  }
  CPPUNIT_ASSERT_EQUAL(entries.back().market_hash_name, items.back().market_hash_name);
  const auto again = catalog.seed(entries, 2000);  // a restart re-seeds: nothing changes
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, again.inserted);
  CPPUNIT_ASSERT_EQUAL(entries.size(), again.unchanged);

  // A 5,000-item inventory, then a re-import that drops 2,500 of them (more ids than one
  // DELETE takes), changes 2,500 and adds 2,500.
  auto& holdings = db_->holdings();
  const auto user = db_->users().createUser("big@example.com", "Big", "", 1000);
  std::vector<store::HoldingRecord> imported;
  for (std::int64_t id = 1; id <= 5000; ++id) imported.push_back({id * 3, id % 7 + 1, 0});
  holdings.replaceHoldings(user.id, imported, 100);
  CPPUNIT_ASSERT_EQUAL(std::size_t{5000}, holdings.holdingsOf(user.id).size());
  CPPUNIT_ASSERT_EQUAL(std::size_t{5000}, holdings.heldItemIds().size());

  std::map<std::int64_t, std::int64_t> expected;
  std::vector<store::HoldingRecord> reimported;
  for (std::int64_t id = 2501; id <= 7500; ++id) {
    const std::int64_t quantity = id <= 5000 ? 100 + id % 5 : 1;
    reimported.push_back({id * 3, quantity, 0});
    expected[id * 3] = quantity;
  }
  holdings.replaceHoldings(user.id, reimported, 200);
  const auto held = holdings.holdingsOf(user.id);
  CPPUNIT_ASSERT_EQUAL(expected.size(), held.size());
  for (const auto& h : held) {
    CPPUNIT_ASSERT_MESSAGE(std::to_string(h.item_id), expected.contains(h.item_id));
    CPPUNIT_ASSERT_EQUAL(expected[h.item_id], h.quantity);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{200}, h.imported_at);
  }
  CPPUNIT_ASSERT_EQUAL(std::int64_t{200}, *holdings.lastImportedAt(user.id));
}

}  // namespace skinpulse::test
