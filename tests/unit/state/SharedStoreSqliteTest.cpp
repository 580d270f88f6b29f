// The shared-store contract on the embedded store over an SQLite file, plus what only
// the embedded store promises: state survives a restart of the daemon.

#include "DatabaseStoreFixture.hpp"

#include <filesystem>
#include <random>
#include <thread>

using namespace skinpulse;
using namespace std::chrono_literals;
using skinpulse::test::DatabaseStoreFixture;

class SharedStoreSqliteTest : public DatabaseStoreFixture {
  CPPUNIT_TEST_SUB_SUITE(SharedStoreSqliteTest, DatabaseStoreFixture);
  CPPUNIT_TEST(testStateSurvivesReopen);
  CPPUNIT_TEST(testPurgeRemovesOnlyExpiredRows);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testStateSurvivesReopen() {
    store_->set(key("session"), "kept", 60s);
    store_->set(key("gone"), "short", 100ms);
    store_.reset();
    database_.reset();
    std::this_thread::sleep_for(150ms);
    store_ = makeStoreOn(url_);
    CPPUNIT_ASSERT_EQUAL(std::string("kept"), store_->get(key("session")).value());
    CPPUNIT_ASSERT(!store_->get(key("gone")));
  }

  void testPurgeRemovesOnlyExpiredRows() {
    auto& embedded = dynamic_cast<state::DatabaseSharedStore&>(*store_);
    store_->set(key("old"), "x", 50ms);
    store_->set(key("live"), "y", 60s);
    std::this_thread::sleep_for(100ms);
    embedded.purgeExpired();
    auto lease = dynamic_cast<store::SqlDatabase&>(*database_).pool().read();
    int rows = 0;
    lease.session() << "SELECT COUNT(*) FROM kv", Poco::Data::Keywords::into(rows),
        Poco::Data::Keywords::now;
    CPPUNIT_ASSERT_EQUAL(1, rows);
  }

 protected:
  std::string databaseUrl() override {
    std::random_device random;
    dir_ = std::filesystem::temp_directory_path() /
           ("skinpulse-state-test-" + std::to_string(random()) + std::to_string(random()));
    url_ = "sqlite://" + (dir_ / "state.db").string();
    return url_;
  }
  std::string skipReason() const override { return ""; }
  void removeDatabase() override { std::filesystem::remove_all(dir_); }

 private:
  std::unique_ptr<state::SharedStore> makeStoreOn(const std::string& url) {
    database_ = store::openDatabase(url, std::string(SKINPULSE_SHARE_DIR) + "/sql");
    return std::make_unique<state::DatabaseSharedStore>(
        dynamic_cast<store::SqlDatabase&>(*database_).pool());
  }

  std::filesystem::path dir_;
  std::string url_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(SharedStoreSqliteTest);
