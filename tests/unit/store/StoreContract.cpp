// Contract: migrations and the catalogue. Prices are in StoreContractPrices.cpp, users
// and holdings in StoreContractAccounts.cpp.

#include "StoreContract.hpp"

#include "store/Migrator.hpp"

#include <Poco/TemporaryFile.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::test {
namespace {

store::CatalogEntry entry(const std::string& name, const std::string& rarity = "Mil-Spec Grade") {
  return store::CatalogEntry{name, "Rifle", name, rarity, false, "https://img.example/" + name};
}

}  // namespace

void StoreContract::setUp() {
  url_ = cleanDatabaseUrl();
  if (skipped()) {
    std::cout << " (skipped: " << skipReason() << ")";
    return;
  }
  db_ = open();
}

void StoreContract::tearDown() {
  db_.reset();
  if (!url_.empty()) removeDatabase();
}

std::unique_ptr<store::Database> StoreContract::open() const {
  return store::openDatabase(url_, migrationsDir());
}

std::string StoreContract::migrationsDir() { return std::string(SKINPULSE_SHARE_DIR) + "/sql"; }

void StoreContract::openSchemaBefore(const std::string& suffix) {
  db_.reset();
  removeDatabase();
  url_ = cleanDatabaseUrl();
  const Poco::TemporaryFile dir;  // the migrations are read at open only
  const std::string flavour = url_.starts_with("sqlite") ? "sqlite" : "postgresql";
  const auto older = std::filesystem::path(dir.path()) / flavour;
  std::filesystem::create_directories(older);
  bool found = false;
  for (const auto& file : store::listMigrations(migrationsDir() + "/" + flavour)) {
    if (file.name.ends_with(suffix)) {
      found = true;
      break;
    }
    std::filesystem::copy_file(file.path, older / file.path.filename());
  }
  CPPUNIT_ASSERT_MESSAGE("no *" + suffix + " migration", found);
  db_ = store::openDatabase(url_, dir.path());
}

store::ConnectionPool& StoreContract::pool() {
  return dynamic_cast<store::SqlDatabase&>(*db_).pool();
}

std::vector<store::HoldingRecord> StoreContract::withoutIds(
    std::vector<store::HoldingRecord> holdings) {
  for (auto& holding : holdings) holding.holding_id = 0;
  return holdings;
}

store::HoldingRecord StoreContract::withoutId(store::HoldingRecord holding) {
  holding.holding_id = 0;
  return holding;
}

void StoreContract::seedItems(std::size_t count, std::int64_t at) {
  std::vector<store::CatalogEntry> entries;
  for (std::size_t i = 1; i <= count; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "Item %04zu", i);
    entries.push_back(entry(name));
  }
  db_->catalog().seed(entries, at);
}

void StoreContract::testMigrationsAppliedOnceAndRecorded() {
  if (skipped()) return;
  const auto latest = store::listMigrations(migrationsDir() + "/" + db_->backend()).back();
  CPPUNIT_ASSERT_EQUAL(latest.version, db_->schemaVersion());
  CPPUNIT_ASSERT(db_->ping());

  auto recorded = [this] {
    std::vector<int> versions;
    std::vector<std::string> names;
    std::vector<std::int64_t> applied_at;
    auto lease = pool().read();
    lease.session() << "SELECT version, name, applied_at FROM schema_migrations ORDER BY version",
        into(versions), into(names), into(applied_at), now;
    CPPUNIT_ASSERT_EQUAL(std::string("001_initial"), names.at(0));
    return applied_at;
  };
  const auto first = recorded();
  db_.reset();
  db_ = open();  // a second start: nothing to apply, nothing recorded twice
  CPPUNIT_ASSERT(first == recorded());
  CPPUNIT_ASSERT_EQUAL(latest.version, db_->schemaVersion());
}

void StoreContract::testFailedMigrationIsRolledBackAndNamed() {
  if (skipped()) return;
  db_.reset();
  // A copy of the real migrations plus a next one that fails half-way.
  const Poco::TemporaryFile dir;
  const auto flavour =
      std::filesystem::path(dir.path()) / (url_.starts_with("sqlite") ? "sqlite" : "postgresql");
  std::filesystem::create_directories(flavour);
  for (const auto& file :
       store::listMigrations(migrationsDir() + "/" + flavour.filename().string())) {
    std::filesystem::copy_file(file.path, flavour / file.path.filename());
  }
  std::ofstream(flavour / "900_broken.sql") << "-- adds a table, then fails\n"
                                               "CREATE TABLE extra (id INTEGER PRIMARY KEY);\n"
                                               "CREATE TABLE items (id INTEGER);\n";
  try {
    store::openDatabase(url_, dir.path());
    CPPUNIT_FAIL("a failing migration must stop the start");
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    CPPUNIT_ASSERT_MESSAGE(message, message.find("900_broken.sql") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(message, message.find("statement 2") != std::string::npos);
  }
  db_ = open();  // the good set still opens: 900 left neither its table nor a record
  CPPUNIT_ASSERT(db_->schemaVersion() < 900);
  auto lease = pool().write();
  lease.session() << "CREATE TABLE extra (id INTEGER PRIMARY KEY)", now;
  lease.session() << "DROP TABLE extra", now;
}

void StoreContract::testMigrationMovesSkinportQuantityToListings() {
  if (skipped()) return;
  // Back to the schema before SDK ABI 1.2 (the migration undone by hand), with points as
  // the daemon stored them then.
  seedItems(1);
  {
    auto lease = pool().write();
    lease.session() << "ALTER TABLE price_points DROP COLUMN listings", now;
    lease.session() << "ALTER TABLE price_points DROP COLUMN kind", now;
    lease.session() << "DELETE FROM schema_migrations WHERE name LIKE '%_price_kind_listings'", now;
    lease.session() << "INSERT INTO price_points (item_id, source, time, price, volume) VALUES "
                       "(1, 'skinport', 100, 47, 5312), (1, 'steam_market', 100, 49, 12)",
        now;
  }
  db_.reset();
  db_ = open();  // applies the kind/listings migration
  const auto points = db_->prices().pointsSince(0);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, points.size());
  // Skinport's `quantity` counted listings: it moves out of volume.
  CPPUNIT_ASSERT_EQUAL(std::string("skinport"), points[0].source);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, points[0].volume);
  CPPUNIT_ASSERT(points[0].listings == std::int64_t{5312});
  CPPUNIT_ASSERT(points[0].kind == sdk::PriceKind::kAsk);
  // Steam's volume is traded volume: it stays.
  CPPUNIT_ASSERT_EQUAL(std::int64_t{12}, points[1].volume);
  CPPUNIT_ASSERT(!points[1].listings);
  CPPUNIT_ASSERT(points[1].kind == sdk::PriceKind::kAsk);
}

void StoreContract::testFillMissingImages() {
  if (skipped()) return;
  auto without = entry("No Image");
  without.image_url.clear();
  auto with_image = entry("Has Image");
  with_image.image_url = "https://cdn.example/own.png";
  db_->catalog().seed({without, with_image}, 1);
  const auto none = db_->catalog().findByName("No Image")->id;
  const auto own = db_->catalog().findByName("Has Image")->id;
  CPPUNIT_ASSERT_EQUAL(std::size_t{1},
                       db_->catalog().fillMissingImages({{none, "https://cdn.example/a.png"},
                                                         {own, "https://cdn.example/b.png"},
                                                         {none, "https://cdn.example/c.png"}}));
  CPPUNIT_ASSERT_EQUAL(std::string("https://cdn.example/a.png"),
                       db_->catalog().findById(none)->image_url);  // the first one wins
  CPPUNIT_ASSERT_EQUAL(std::string("https://cdn.example/own.png"),
                       db_->catalog().findById(own)->image_url);
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, db_->catalog().fillMissingImages({}));
}

void StoreContract::testReseedKeepsIdsAndCreatedAt() {
  if (skipped()) return;
  auto& catalog = db_->catalog();
  auto first =
      catalog.seed({entry("AK-47 | Redline (Field-Tested)"), entry("AWP | Asiimov (Field-Tested)"),
                    entry("M4A4 | Howl (Factory New)", "Contraband")},
                   1000);
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, first.inserted);

  auto changed = entry("AWP | Asiimov (Field-Tested)", "Covert");
  auto second = catalog.seed(
      {entry("AK-47 | Redline (Field-Tested)"), changed, entry("Glock-18 | Fade (Factory New)")},
      2000);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, second.inserted);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, second.updated);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, second.unchanged);

  const auto items = catalog.allItems();
  CPPUNIT_ASSERT_EQUAL(std::size_t{4}, items.size());
  const char* names[] = {"AK-47 | Redline (Field-Tested)", "AWP | Asiimov (Field-Tested)",
                         "M4A4 | Howl (Factory New)", "Glock-18 | Fade (Factory New)"};
  const std::int64_t created[] = {1000, 1000, 1000, 2000};
  for (std::size_t i = 0; i < items.size(); ++i) {
    CPPUNIT_ASSERT_EQUAL(static_cast<std::int64_t>(i + 1), items[i].id);
    CPPUNIT_ASSERT_EQUAL(std::string(names[i]), items[i].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(created[i], items[i].created_at);
  }
  CPPUNIT_ASSERT_EQUAL(std::string("Covert"), items[1].rarity);
  CPPUNIT_ASSERT_EQUAL(std::string("Contraband"), items[2].rarity);  // absent ≠ deleted

  const auto again = catalog.seed({entry("AK-47 | Redline (Field-Tested)"), changed}, 3000);
  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, again.inserted + again.updated);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, again.unchanged);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, catalog.findByName(changed.market_hash_name)->id);
  CPPUNIT_ASSERT_EQUAL(std::string("Glock-18 | Fade (Factory New)"),
                       catalog.findById(4)->market_hash_name);
  CPPUNIT_ASSERT(!catalog.findById(5));
  CPPUNIT_ASSERT(!catalog.findByName("AK-47 | Redline (field-tested)"));

  // A name listed twice in one seed is one item; its last entry wins.
  const auto twice =
      catalog.seed({entry("P250 | Sand Dune"), entry("P250 | Sand Dune", "Covert")}, 4000);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, twice.inserted + twice.updated + twice.unchanged);
  CPPUNIT_ASSERT_EQUAL(std::string("Covert"), catalog.findById(5)->rarity);
}

void StoreContract::testNamesRoundTripByteForByte() {
  if (skipped()) return;
  const std::vector<std::string> names = {
      "StatTrak\u2122 AK-47 | Redline (Field-Tested)",
      "\u2605 Karambit | Doppler (Factory New)",
      "\u2605 StatTrak\u2122 Butterfly Knife | Fade (Minimal Wear)",
      "Sticker | \u5927\u5b57 (Holo) | \u6771\u4eac 2024",
      "Caf\u00e9 | precomposed",   // the same text as the next one after NFC,
      "Cafe\u0301 | precomposed",  // but a different name: never normalised
      "Sealed Graffiti | Lambda (Tiger Orange)  ",
  };
  std::vector<store::CatalogEntry> entries;
  for (const auto& name : names) entries.push_back(entry(name));
  CPPUNIT_ASSERT_EQUAL(names.size(), db_->catalog().seed(entries, 1000).inserted);

  const auto items = db_->catalog().allItems();
  CPPUNIT_ASSERT_EQUAL(names.size(), items.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    CPPUNIT_ASSERT_EQUAL(names[i], items[i].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(items[i].id, db_->catalog().findByName(names[i])->id);
  }
  CPPUNIT_ASSERT_EQUAL(names.size(), db_->catalog().seed(entries, 2000).unchanged);
}

void StoreContract::testBulkLoadTiming() {
  if (skipped()) return;
  using Clock = std::chrono::steady_clock;
  auto ms = [](Clock::time_point since) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
  };
  std::vector<store::CatalogEntry> entries;
  for (int i = 0; i < 34500; ++i) {
    entries.push_back(store::CatalogEntry{
        "Synthetic " + std::to_string(i) + " | Skin (Field-Tested)", "Rifle", "Skin", "Restricted",
        i % 3 == 0, "https://img.example/" + std::to_string(i)});
  }
  auto start = Clock::now();
  CPPUNIT_ASSERT_EQUAL(std::size_t{34500}, db_->catalog().seed(entries, 1000).inserted);
  const auto seed_ms = ms(start);
  start = Clock::now();
  CPPUNIT_ASSERT_EQUAL(std::size_t{34500}, db_->catalog().seed(entries, 2000).unchanged);
  const auto reseed_ms = ms(start);

  std::vector<store::PricePoint> points;
  for (int i = 0; i < 100000; ++i) {
    points.push_back({1 + i % 25000, (i / 25000) % 2 == 0 ? "skinport" : "steam_market",
                      1700000000 + i / 25000 * 60, 100 + i, i % 7});
  }
  start = Clock::now();
  CPPUNIT_ASSERT_EQUAL(std::size_t{100000}, db_->prices().insert(points));
  const auto insert_ms = ms(start);
  start = Clock::now();
  CPPUNIT_ASSERT_EQUAL(std::size_t{50000}, db_->prices().latestPerItemSource().size());
  const auto latest_ms = ms(start);
  std::cout << " [" << db_->backend() << ": seed 34,500 items " << seed_ms << " ms, re-seed "
            << reseed_ms << " ms, insert 100,000 points " << insert_ms
            << " ms, latestPerItemSource " << latest_ms << " ms]";
}

}  // namespace skinpulse::test
