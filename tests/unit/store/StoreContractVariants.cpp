// Contract: item variants (docs/api.md §18): the migration that makes (market_hash_name,
// variant) the identity of an item, on a database that already holds prices and
// holdings, and seeding variant items.

#include "StoreContract.hpp"
#include "store/Migrator.hpp"

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::test {
namespace {

const std::string kDoppler = "★ Karambit | Doppler (Factory New)";

store::CatalogEntry knife(const std::string& variant = "") {
  store::CatalogEntry entry{kDoppler, "Karambit", "Doppler", "Covert", false, ""};
  entry.variant = variant;
  return entry;
}

}  // namespace

void StoreContract::testVariantMigrationKeepsPricesAndHoldings() {
  if (skipped()) return;
  // The schema as it was before variants: every migration up to the one that adds them.
  openSchemaBefore("_item_variants");
  const std::string flavour = url_.starts_with("sqlite") ? "sqlite" : "postgresql";
  {
    auto lease = pool().write();
    lease.session() << "INSERT INTO items (id, market_hash_name, weapon_type, skin_name, rarity, "
                       "stattrak, image_url, created_at) VALUES "
                       "(1, '★ Karambit | Doppler (Factory New)', 'Karambit', 'Doppler', "
                       "'Covert', " +
                           std::string(flavour == "sqlite" ? "0" : "FALSE") +
                           ", '', 500), "
                           "(2, 'Recoil Case', 'Container', 'Recoil Case', 'Base Grade', " +
                           std::string(flavour == "sqlite" ? "0" : "FALSE") + ", '', 500)",
        now;
  }
  {
    // Plain SQL: the store of today also writes tables this older schema does not have yet.
    auto lease = pool().write();
    lease.session() << "INSERT INTO price_points (item_id, source, time, price, volume) VALUES "
                       "(1, 'skinport', 100, 177185, 0), (1, 'skinport', 200, 40907, 0), "
                       "(2, 'steam', 100, 47, 3)",
        now;
  }
  const auto user = db_->users().createUser("v@example.com", "V", "", 1000);
  {
    // Plain SQL too: today's holdings (migration 011/014) have columns this schema lacks.
    auto lease = pool().write();
    lease.session() << "INSERT INTO holdings (user_id, item_id, quantity, imported_at) VALUES "
                       "('" +
                           user.id + "', 1, 1, 900), ('" + user.id + "', 2, 5, 900)",
        now;
  }

  db_.reset();
  db_ = open();  // applies the variants migration
  const auto latest = store::listMigrations(migrationsDir() + "/" + flavour).back();
  CPPUNIT_ASSERT_EQUAL(latest.version, db_->schemaVersion());
  const auto items = db_->catalog().allItems();
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, items.size());
  CPPUNIT_ASSERT_EQUAL(kDoppler, items[0].market_hash_name);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{500}, items[0].created_at);
  CPPUNIT_ASSERT(items[0].variant.empty() && !items[0].variant_of);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, db_->prices().history(1, 0, std::nullopt).size());
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, db_->prices().history(2, 0, std::nullopt).size());
  const auto held = db_->holdings().holdingsOf(user.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, held.size());
  CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, held[1].quantity);

  // The references are still checked (SQLite: the rebuild left foreign keys on).
  if (flavour == "sqlite") {
    auto lease = pool().read();
    int foreign_keys = 0;
    lease.session() << "PRAGMA foreign_keys", into(foreign_keys), now;
    CPPUNIT_ASSERT_EQUAL(1, foreign_keys);
    std::int64_t dangling = -1;
    lease.session() << "SELECT COUNT(*) FROM pragma_foreign_key_check", into(dangling), now;
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, dangling);
    CPPUNIT_ASSERT_THROW(db_->prices().insert({{99, "steam", 100, 1, 0}}), std::exception);
  }

  // The name is no longer unique on its own: its variants join it, ids after max(id).
  const auto seeded = db_->catalog().seed({knife(), knife("Ruby"), knife("Phase 2")}, 2000);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, seeded.inserted);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, seeded.unchanged);
  const auto ruby = db_->catalog().findById(3);
  CPPUNIT_ASSERT(ruby);
  CPPUNIT_ASSERT_EQUAL(std::string("Ruby"), ruby->variant);
  CPPUNIT_ASSERT(ruby->variant_of == std::int64_t{1});
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, db_->catalog().findByName(kDoppler)->id);
}

void StoreContract::testSeedVariants() {
  if (skipped()) return;
  auto& catalog = db_->catalog();
  // New base and its variants in one seed, in file order.
  auto result = catalog.seed({knife(), knife("Phase 1"), knife("Ruby")}, 1000);
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, result.inserted);
  auto items = catalog.allItems();
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, items.size());
  CPPUNIT_ASSERT(items[0].variant.empty());
  CPPUNIT_ASSERT_EQUAL(std::string("Phase 1"), items[1].variant);
  CPPUNIT_ASSERT(items[1].variant_of == items[0].id);
  CPPUNIT_ASSERT_EQUAL(std::string("Ruby"), items[2].variant);
  // Idempotent, ids stable; a changed variant line updates only that variant item.
  auto changed = knife("Ruby");
  changed.rarity = "Extraordinary";
  result = catalog.seed({knife(), knife("Phase 1"), changed}, 2000);
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, result.inserted);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.updated);
  items = catalog.allItems();
  CPPUNIT_ASSERT_EQUAL(std::string("Extraordinary"), items[2].rarity);
  CPPUNIT_ASSERT_EQUAL(std::string("Covert"), items[0].rarity);
  CPPUNIT_ASSERT(items[2].variant_of == items[0].id);
  // The base by name, never a variant; names for matching carry the variant.
  CPPUNIT_ASSERT_EQUAL(items[0].id, catalog.findByName(kDoppler)->id);
  const auto names = catalog.itemNames();
  CPPUNIT_ASSERT_EQUAL(std::string("Ruby"), names[2].variant);
  CPPUNIT_ASSERT(names[2].variant_of == items[0].id);
  // A variant without its base is refused, and nothing of that seed is written.
  store::CatalogEntry orphan{
      "★ Bayonet | Doppler (Factory New)", "Bayonet", "Doppler", "Covert", false, ""};
  orphan.variant = "Sapphire";
  CPPUNIT_ASSERT_THROW(
      catalog.seed({store::CatalogEntry{"Recoil Case", "Container", "", "", false, ""}, orphan},
                   3000),
      std::invalid_argument);
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, catalog.allItems().size());
}

}  // namespace skinpulse::test
