// The import lock on the embedded shared store over PostgreSQL (several instances on one
// database); needs SKINPULSE_TEST_POSTGRES_URL (label needs-postgres), otherwise skipped.
// Each test gets a schema of its own, dropped afterwards.

#include "ImportLockContract.hpp"
#include "state/DatabaseSharedStore.hpp"
#include "store/Database.hpp"
#include "store/DatabaseUrl.hpp"
#include "store/SqlDatabase.hpp"

#include <Poco/Exception.h>
#ifdef SKINPULSE_WITH_POSTGRES
#include <Poco/Data/PostgreSQL/Connector.h>
#endif

#include <cstdlib>
#include <unistd.h>

using namespace skinpulse;
using skinpulse::test::ImportLockContract;

class ImportLockPostgresTest : public ImportLockContract {
  CPPUNIT_TEST_SUB_SUITE(ImportLockPostgresTest, ImportLockContract);
  CPPUNIT_TEST_SUITE_END();

 protected:
  std::unique_ptr<state::SharedStore> makeStore() override {
#ifndef SKINPULSE_WITH_POSTGRES
    return nullptr;
#endif
    const char* url = std::getenv("SKINPULSE_TEST_POSTGRES_URL");
    if (url == nullptr || *url == '\0') return nullptr;
    if (schema_.empty()) {
      static int counter = 0;
      schema_ = "importlock_test_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
      admin_url_ = url;
      admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
      admin("CREATE SCHEMA " + schema_);
    }
    const std::string separator = admin_url_.find('?') == std::string::npos ? "?" : "&";
    // One Database per store: each is another daemon instance on the same schema.
    databases_.push_back(openDatabase(admin_url_ + separator + "options=-csearch_path%3D" + schema_,
                                      SKINPULSE_SHARE_DIR "/sql"));
    return std::make_unique<state::DatabaseSharedStore>(
        dynamic_cast<store::SqlDatabase&>(*databases_.back()).pool());
  }

  std::unique_ptr<state::SharedStore> makeUnreachableStore() override {
    down_pool_ = std::make_unique<store::ConnectionPool>(
        Backend::kPostgres,
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
    if (!schema_.empty()) admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    schema_.clear();
  }

 private:
  void admin(const std::string& sql) const {
#ifdef SKINPULSE_WITH_POSTGRES
    Poco::Data::PostgreSQL::Connector::registerConnector();
#endif
    Poco::Data::Session session("PostgreSQL", parseDatabaseUrl(admin_url_).connection_string);
    session << "SET client_min_messages TO warning", Poco::Data::Keywords::now;
    session << sql, Poco::Data::Keywords::now;
  }

  std::string admin_url_;
  std::string schema_;
  std::vector<std::unique_ptr<Database>> databases_;
  std::unique_ptr<store::ConnectionPool> down_pool_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(ImportLockPostgresTest);
