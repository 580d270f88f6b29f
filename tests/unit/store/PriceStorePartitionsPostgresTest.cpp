// PriceStore::maintainPartitions: PostgreSQL's day partitions of price_points
// (migration 010, store/postgres/PostgresPartitions, docs/adr/0026-partitions-and-rollups.md): the
// migration of an existing table with rows, partitions created ahead (taking DEFAULT's rows of
// their day), whole days dropped with each series' reference point moved to DEFAULT first. Needs
// SKINPULSE_TEST_POSTGRES_URL; without it every test says so and passes.

#include "mocks/PostgresTestSchema.hpp"
#include "store/Database.hpp"
#include "store/Migrator.hpp"
#include "store/SqlDatabase.hpp"

#include <Poco/Data/Session.h>
#include <Poco/TemporaryFile.h>
#include <cppunit/extensions/HelperMacros.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <limits>
#include <set>
#include <thread>

using namespace skinpulse;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;
using skinpulse::test::PostgresTestSchema;

namespace {

constexpr std::int64_t kDay = 86400;

std::string migrationsDir() { return std::string(SKINPULSE_SHARE_DIR) + "/sql"; }

std::int64_t wallNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

class PriceStorePartitionsPostgresTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PriceStorePartitionsPostgresTest);
  CPPUNIT_TEST(testMigrationAttachesTheExistingTable);
  CPPUNIT_TEST(testCreatingADayMovesItsDefaultRows);
  CPPUNIT_TEST(testDropKeepsEachSeriesReference);
  CPPUNIT_TEST(testInstancesKeepTheSameDaysTogether);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    const std::string server = PostgresTestSchema::serverUrl();
    if (server.empty()) return;
    url_ = schema_.create(server, "partitions_test");
  }
  void tearDown() override {
    db_.reset();
    schema_.drop();
  }

  void testMigrationAttachesTheExistingTable() {
    if (skip()) return;
    // The schema before partitioning, with rows.
    const Poco::TemporaryFile dir;
    const auto older = std::filesystem::path(dir.path()) / "postgresql";
    std::filesystem::create_directories(older);
    for (const auto& file : store::listMigrations(migrationsDir() + "/postgresql")) {
      if (file.name.ends_with("_rollups")) break;  // 009 and 010 then run over the rows
      std::filesystem::copy_file(file.path, older / file.path.filename());
    }
    db_ = store::openDatabase(url_, dir.path());
    const std::int64_t today = wallNow() / kDay * kDay;
    {
      auto lease = pool().write();
      lease.session() << "INSERT INTO items (id, market_hash_name, created_at) VALUES (1, 'a', 1)",
          now;
      lease.session() << "INSERT INTO price_points (item_id, source, time, price, volume, outlier) "
                         "SELECT 1, 's', " +
                             std::to_string(today - 20 * kDay) +
                             " + g * 60, 100 + g % 7, 1, 0 FROM generate_series(0, 28799) g",
          now;
    }
    db_.reset();
    db_ = store::openDatabase(url_, migrationsDir());  // 010, then the days ahead
    CPPUNIT_ASSERT_EQUAL(std::int64_t{28800}, count("price_points"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{28800}, count("price_points_legacy"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, count("price_points_default"));
    const auto names = partitionNames();
    CPPUNIT_ASSERT(names.count("price_points_legacy") == 1);
    CPPUNIT_ASSERT(names.count("price_points_default") == 1);
    // Today and tomorrow are the legacy table's; the keeper made the next days.
    CPPUNIT_ASSERT(names.count(dayName(today + 2 * kDay)) == 1);
    CPPUNIT_ASSERT(names.count(dayName(today + 3 * kDay)) == 1);
    CPPUNIT_ASSERT(names.count(dayName(today)) == 0);
    // The queries of the store still answer from it.
    auto& prices = db_->prices();
    CPPUNIT_ASSERT_EQUAL(std::size_t{28800}, prices.history(1, 0, std::nullopt).size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.latestPerItemSource().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.newestBefore(today).size());
    // Migration 009 built the rollups of the rows.
    CPPUNIT_ASSERT_EQUAL(std::size_t{20},
                         prices.rollups(1, "s", store::RollupLevel::kDay, 0).size());
    // A new point of today lands in the legacy table, one of the day after tomorrow in its day.
    prices.insert({{1, "s", today + 60, 5, 0}, {1, "s", today + 2 * kDay + 60, 6, 0}});
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, count(dayName(today + 2 * kDay)));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{28801}, count("price_points_legacy"));
  }

  void testCreatingADayMovesItsDefaultRows() {
    if (skip()) return;
    db_ = store::openDatabase(url_, migrationsDir());
    seedItem();
    const std::int64_t far = (wallNow() / kDay + 10) * kDay;  // no partition yet
    auto& prices = db_->prices();
    prices.insert({{1, "s", far + 100, 5, 0}, {1, "s", far + kDay + 100, 6, 0}});
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, count("price_points_default"));
    const auto pass = prices.maintainPartitions(far, std::numeric_limits<std::int64_t>::min(), 0);
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, pass.created);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, count("price_points_default"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, count(dayName(far)));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, count(dayName(far + kDay)));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, prices.history(1, 0, std::nullopt).size());
    // Again: nothing to do.
    CPPUNIT_ASSERT_EQUAL(
        std::size_t{0},
        prices.maintainPartitions(far, std::numeric_limits<std::int64_t>::min(), 0).created);
  }

  // A fleet's instances open and run retention at the same time: each day is created and
  // dropped once, and nobody fails.
  void testInstancesKeepTheSameDaysTogether() {
    if (skip()) return;
    db_ = store::openDatabase(url_, migrationsDir());
    auto other = store::openDatabase(url_, migrationsDir());
    const std::int64_t far = (wallNow() / kDay + 20) * kDay;
    std::size_t created[2] = {0, 0};
    std::string failure;
    std::thread second([&] {
      try {
        created[1] = other->prices().maintainPartitions(far, 0, 0).created;
      } catch (const std::exception& e) {
        failure = e.what();
      }
    });
    created[0] = db_->prices().maintainPartitions(far, 0, 0).created;
    second.join();
    CPPUNIT_ASSERT_EQUAL(std::string(), failure);
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, created[0] + created[1]);
    std::size_t dropped[2] = {0, 0};
    std::thread drop([&] {
      try {
        dropped[1] = other->prices().maintainPartitions(far, far + 2 * kDay, 0).dropped;
      } catch (const std::exception& e) {
        failure = e.what();
      }
    });
    dropped[0] = db_->prices().maintainPartitions(far, far + 2 * kDay, 0).dropped;
    drop.join();
    CPPUNIT_ASSERT_EQUAL(std::string(), failure);
    // Every partition ending by far + 2 days: the four days made at open (today to three
    // days ahead; the empty legacy partition was retired first), far, far + 1.
    const auto names = partitionNames();
    CPPUNIT_ASSERT(names.count(dayName(far)) == 0 && names.count(dayName(far + kDay)) == 0);
    CPPUNIT_ASSERT(names.count(dayName(far + 2 * kDay)) == 1);
    CPPUNIT_ASSERT_EQUAL(std::size_t{6}, dropped[0] + dropped[1]);
  }

  void testDropKeepsEachSeriesReference() {
    if (skip()) return;
    db_ = store::openDatabase(url_, migrationsDir());
    seedItem(3);
    auto& prices = db_->prices();
    const std::int64_t d1 = (wallNow() / kDay + 10) * kDay;
    const std::int64_t d2 = d1 + kDay, d3 = d2 + kDay, d4 = d3 + kDay;
    prices.maintainPartitions(d1, std::numeric_limits<std::int64_t>::min(), 0);  // d1..d4
    // Item 1 trades on d1 and d2; item 2 only on d1; item 3 on d1 and again on d4, after
    // the reference instant.
    std::vector<store::PricePoint> points;
    for (std::int64_t i = 0; i < 1000; ++i) {
      points.push_back({1, "s", d1 + i * 60, 100 + i, 1});
      points.push_back({1, "s", d2 + i * 60, 200 + i, 1});
      points.push_back({2, "s", d1 + i * 60, 300 + i, 1});
      points.push_back({3, "s", d1 + i * 60, 400 + i, 1});
    }
    points.push_back({3, "s", d4 + 60, 499, 1});
    CPPUNIT_ASSERT_EQUAL(points.size(), prices.insert(points));
    const std::int64_t last = d1 + 999 * 60;

    const auto started = std::chrono::steady_clock::now();
    const auto pass = prices.maintainPartitions(d3, d3, d3);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    std::cout << " [drop of 6 partitions (4,000 rows, 3 kept): " << ms << " ms]";
    CPPUNIT_ASSERT(!pass.blocked);
    // The four days the open made (today to three days ahead; the empty legacy table was
    // retired first), d1 and d2.
    CPPUNIT_ASSERT_EQUAL(std::size_t{6}, pass.dropped);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, pass.kept);
    const auto names = partitionNames();
    CPPUNIT_ASSERT(names.count(dayName(d1)) == 0 && names.count(dayName(d2)) == 0);
    CPPUNIT_ASSERT(names.count(dayName(d3)) == 1 && names.count("price_points_legacy") == 0);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, count("price_points_default"));
    const auto one = prices.history(1, 0, std::nullopt);
    CPPUNIT_ASSERT(one.size() == 1 && one[0].time == d2 + 999 * 60 && one[0].price == 1199);
    const auto two = prices.history(2, 0, std::nullopt);
    CPPUNIT_ASSERT(two.size() == 1 && two[0].time == last);
    const auto three = prices.history(3, 0, std::nullopt);
    CPPUNIT_ASSERT(three.size() == 2 && three[0].time == last && three[1].time == d4 + 60);
    // The rollups stay; the keepers in DEFAULT go row by row once a newer reference exists.
    CPPUNIT_ASSERT_EQUAL(std::size_t{2},
                         prices.rollups(1, "s", store::RollupLevel::kDay, 0).size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.deleteOlderThan(d3, d4 + kDay, 100));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, prices.history(3, 0, std::nullopt).size());
  }

 private:
  bool skip() const {
    if (!url_.empty()) return false;
    std::cout << " [skipped: SKINPULSE_TEST_POSTGRES_URL not set]";
    return true;
  }
  store::ConnectionPool& pool() { return dynamic_cast<store::SqlDatabase&>(*db_).pool(); }
  void seedItem(int count = 1) {
    auto lease = pool().write();
    for (int id = 1; id <= count; ++id) {
      lease.session() << "INSERT INTO items (id, market_hash_name, created_at) VALUES (" +
                             std::to_string(id) + ", 'item " + std::to_string(id) + "', 1)",
          now;
    }
  }
  std::int64_t count(const std::string& table) {
    std::int64_t n = -1;
    auto lease = pool().read();
    lease.session() << "SELECT COUNT(*) FROM " + table, into(n), now;
    return n;
  }
  std::set<std::string> partitionNames() {
    std::vector<std::string> names;
    auto lease = pool().read();
    lease.session() << "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                       "WHERE i.inhparent = to_regclass('price_points')",
        into(names), now;
    return {names.begin(), names.end()};
  }
  static std::string dayName(std::int64_t day) {
    const std::time_t t = static_cast<std::time_t>(day);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char name[64];
    std::strftime(name, sizeof name, "price_points_p%Y%m%d", &utc);
    return name;
  }

  PostgresTestSchema schema_;
  std::string url_;
  std::unique_ptr<store::Database> db_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(PriceStorePartitionsPostgresTest);
