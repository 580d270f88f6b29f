#pragma once

// What the SQLite and PostgreSQL suites share: a migrated database under a
// DatabaseSharedStore, and an "unreachable" one whose pool cannot open a session.

#include "SharedStoreContract.hpp"
#include "state/DatabaseSharedStore.hpp"
#include "store/Database.hpp"
#include "store/SqlDatabase.hpp"

#include <Poco/Exception.h>

namespace skinpulse::test {

class DatabaseStoreFixture : public SharedStoreContract {
 protected:
  /// An empty database's URL, or "" when the backend is unavailable.
  virtual std::string databaseUrl() = 0;

  std::unique_ptr<state::SharedStore> makeStore() override {
    const std::string url = databaseUrl();
    if (url.empty()) return nullptr;
    database_ = store::openDatabase(url, std::string(SKINPULSE_SHARE_DIR) + "/sql");
    return std::make_unique<state::DatabaseSharedStore>(
        dynamic_cast<store::SqlDatabase&>(*database_).pool());
  }

  std::unique_ptr<state::SharedStore> makeUnreachableStore() override {
    down_pool_ = std::make_unique<store::ConnectionPool>(
        store::Backend::kSqlite,
        []() -> Poco::Data::Session { throw Poco::IOException("database server went away"); }, 1,
        true);
    return std::make_unique<state::DatabaseSharedStore>(*down_pool_);
  }

  void cleanUp() override {
    database_.reset();
    down_pool_.reset();
    removeDatabase();
  }
  virtual void removeDatabase() {}

  std::unique_ptr<store::Database> database_;
  std::unique_ptr<store::ConnectionPool> down_pool_;
};

}  // namespace skinpulse::test
