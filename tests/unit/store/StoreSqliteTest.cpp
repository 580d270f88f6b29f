// The store contract on SQLite files, plus what only SQLite has: WAL mode, the
// directory created on open, and the shared in-memory database.

#include "StoreContract.hpp"

#include <Poco/Data/SQLite/Connector.h>

#include <filesystem>
#include <random>

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

// CppUnit names suites by their type, namespace included, and CTest runs the suite by
// the file name: suites live in the global namespace.
using namespace skinpulse;
using skinpulse::test::StoreContract;

class StoreSqliteTest : public StoreContract {
  CPPUNIT_TEST_SUB_SUITE(StoreSqliteTest, StoreContract);
  CPPUNIT_TEST(testFileIsInWalModeWithForeignKeys);
  CPPUNIT_TEST(testInMemoryDatabaseIsSharedByAllCalls);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testFileIsInWalModeWithForeignKeys() {
    CPPUNIT_ASSERT(std::filesystem::is_directory(dir_ / "nested"));  // created by open
    Poco::Data::Session raw("SQLite", file().string());
    std::string mode;
    raw << "PRAGMA journal_mode", into(mode), now;
    CPPUNIT_ASSERT_EQUAL(std::string("wal"), mode);

    auto lease = pool().read();
    int foreign_keys = 0;
    int synchronous = 0;
    lease.session() << "PRAGMA foreign_keys", into(foreign_keys), now;
    lease.session() << "PRAGMA synchronous", into(synchronous), now;
    CPPUNIT_ASSERT_EQUAL(1, foreign_keys);
    CPPUNIT_ASSERT_EQUAL(1, synchronous);  // NORMAL
  }

  void testInMemoryDatabaseIsSharedByAllCalls() {
    auto memory = store::openDatabase("sqlite://:memory:", migrationsDir());
    CPPUNIT_ASSERT_EQUAL(std::string("sqlite"), memory->backend());
    memory->catalog().seed(
        {{"AK-47 | Redline (Field-Tested)", "Rifle", "Redline", "Classified", false, ""}}, 1000);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, memory->prices().insert({{1, "steam", 10, 100, 1}}));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, memory->catalog().allItems().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, memory->prices().history(1, 0, std::nullopt).size());
    // A second in-memory database is a different one.
    auto other = store::openDatabase("sqlite://:memory:", migrationsDir());
    CPPUNIT_ASSERT(other->catalog().allItems().empty());
  }

 protected:
  std::string cleanDatabaseUrl() override {
    std::random_device random;
    dir_ = std::filesystem::temp_directory_path() /
           ("skinpulse-store-test-" + std::to_string(random()) + std::to_string(random()));
    return "sqlite://" + file().string();
  }
  std::string skipReason() const override { return ""; }
  void removeDatabase() override { std::filesystem::remove_all(dir_); }

 private:
  std::filesystem::path file() const { return dir_ / "nested" / "skinpulse.db"; }

  std::filesystem::path dir_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(StoreSqliteTest);
