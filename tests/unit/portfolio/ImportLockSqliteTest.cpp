// The import lock on the embedded shared store (the `kv` table of a SQLite file).

#include "ImportLockContract.hpp"
#include "state/DatabaseSharedStore.hpp"
#include "store/Database.hpp"
#include "store/SqlDatabase.hpp"

#include <Poco/Exception.h>

#include <filesystem>
#include <random>

using namespace skinpulse;
using skinpulse::test::ImportLockContract;

class ImportLockSqliteTest : public ImportLockContract {
  CPPUNIT_TEST_SUB_SUITE(ImportLockSqliteTest, ImportLockContract);
  CPPUNIT_TEST_SUITE_END();

 protected:
  std::unique_ptr<state::SharedStore> makeStore() override {
    if (file_.empty()) {
      std::random_device random;
      file_ = std::filesystem::temp_directory_path() /
              ("skinpulse-importlock-" + std::to_string(random()) + ".db");
    }
    // One Database per store: a "restart" opens the file again.
    databases_.push_back(
        store::openDatabase("sqlite://" + file_.string(), SKINPULSE_SHARE_DIR "/sql"));
    return std::make_unique<state::DatabaseSharedStore>(
        dynamic_cast<store::SqlDatabase&>(*databases_.back()).pool());
  }

  std::unique_ptr<state::SharedStore> makeUnreachableStore() override {
    down_pool_ = std::make_unique<store::ConnectionPool>(
        store::Backend::kSqlite,
        []() -> Poco::Data::Session { throw Poco::IOException("database went away"); }, 1, true);
    return std::make_unique<state::DatabaseSharedStore>(*down_pool_);
  }

  std::string skipReason() const override { return ""; }

  void cleanUp() override {
    databases_.clear();
    down_pool_.reset();
    if (!file_.empty()) {
      for (const char* suffix : {"", "-wal", "-shm"}) {
        std::filesystem::remove(file_.string() + suffix);
      }
      file_.clear();
    }
  }

 private:
  std::filesystem::path file_;
  std::vector<std::unique_ptr<store::Database>> databases_;
  std::unique_ptr<store::ConnectionPool> down_pool_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(ImportLockSqliteTest);
