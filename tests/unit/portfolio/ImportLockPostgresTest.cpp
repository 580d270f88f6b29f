// The import lock on the embedded shared store over PostgreSQL (several instances on one
// database); needs SKINPULSE_TEST_POSTGRES_URL (label needs-postgres), otherwise skipped.
// Each test gets a schema of its own, dropped afterwards.

#include "ImportLockContract.hpp"
#include "mocks/PostgresTestSchema.hpp"
#include "state/DatabaseSharedStore.hpp"
#include "store/Database.hpp"
#include "store/SqlDatabase.hpp"

#include <Poco/Exception.h>

using namespace skinpulse;
using skinpulse::test::ImportLockContract;
using skinpulse::test::PostgresTestSchema;

class ImportLockPostgresTest : public ImportLockContract {
  CPPUNIT_TEST_SUB_SUITE(ImportLockPostgresTest, ImportLockContract);
  CPPUNIT_TEST_SUITE_END();

 protected:
  std::unique_ptr<state::SharedStore> makeStore() override {
    const std::string server = PostgresTestSchema::serverUrl();
    if (server.empty()) return nullptr;
    if (!schema_.created()) schema_.create(server, "importlock_test");
    // One Database per store: each is another daemon instance on the same schema.
    databases_.push_back(store::openDatabase(schema_.url(), SKINPULSE_SHARE_DIR "/sql"));
    return std::make_unique<state::DatabaseSharedStore>(
        dynamic_cast<store::SqlDatabase&>(*databases_.back()).pool());
  }

  std::unique_ptr<state::SharedStore> makeUnreachableStore() override {
    down_pool_ = std::make_unique<store::ConnectionPool>(
        store::Backend::kPostgres,
        []() -> Poco::Data::Session { throw Poco::IOException("database server went away"); }, 1,
        false);
    return std::make_unique<state::DatabaseSharedStore>(*down_pool_);
  }

  std::string skipReason() const override {
    return "SKINPULSE_TEST_POSTGRES_URL not set or PostgreSQL support not built";
  }

  void cleanUp() override {
    databases_.clear();
    down_pool_.reset();
    schema_.drop();
  }

 private:
  PostgresTestSchema schema_;
  std::vector<std::unique_ptr<store::Database>> databases_;
  std::unique_ptr<store::ConnectionPool> down_pool_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(ImportLockPostgresTest);
