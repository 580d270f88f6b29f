// The shared-store contract on the embedded store over PostgreSQL; needs
// SKINPULSE_TEST_POSTGRES_URL (label needs-postgres), otherwise every test is skipped.
// Each test gets a schema of its own, dropped afterwards.

#include "DatabaseStoreFixture.hpp"
#include "store/DatabaseUrl.hpp"

#ifdef SKINPULSE_WITH_POSTGRES
#include <Poco/Data/PostgreSQL/Connector.h>
#endif

#include <cstdlib>
#include <unistd.h>

using namespace skinpulse;
using skinpulse::test::DatabaseStoreFixture;

class SharedStorePostgresTest : public DatabaseStoreFixture {
  CPPUNIT_TEST_SUB_SUITE(SharedStorePostgresTest, DatabaseStoreFixture);
  CPPUNIT_TEST_SUITE_END();

 protected:
  std::string databaseUrl() override {
#ifndef SKINPULSE_WITH_POSTGRES
    return "";
#endif
    const char* url = std::getenv("SKINPULSE_TEST_POSTGRES_URL");
    if (url == nullptr || *url == '\0') return "";
    static int counter = 0;
    schema_ = "state_test_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
    admin_url_ = url;
    admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    admin("CREATE SCHEMA " + schema_);
    const std::string separator = admin_url_.find('?') == std::string::npos ? "?" : "&";
    return admin_url_ + separator + "options=-csearch_path%3D" + schema_;
  }
  std::string skipReason() const override {
    return "SKINPULSE_TEST_POSTGRES_URL not set or PostgreSQL support not built";
  }
  void removeDatabase() override {
    if (!schema_.empty()) admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
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
};

CPPUNIT_TEST_SUITE_REGISTRATION(SharedStorePostgresTest);
