// The shared-store contract on the embedded store over PostgreSQL; needs
// SKINPULSE_TEST_POSTGRES_URL (label needs-postgres), otherwise every test is skipped.
// Each test gets a schema of its own, dropped afterwards.

#include "DatabaseStoreFixture.hpp"
#include "mocks/PostgresTestSchema.hpp"

using namespace skinpulse;
using skinpulse::test::DatabaseStoreFixture;
using skinpulse::test::PostgresTestSchema;

class SharedStorePostgresTest : public DatabaseStoreFixture {
  CPPUNIT_TEST_SUB_SUITE(SharedStorePostgresTest, DatabaseStoreFixture);
  CPPUNIT_TEST_SUITE_END();

 protected:
  std::string databaseUrl() override {
    const std::string server = PostgresTestSchema::serverUrl();
    if (server.empty()) return "";
    return schema_.create(server, "state_test");
  }
  std::string skipReason() const override {
    return "SKINPULSE_TEST_POSTGRES_URL not set or PostgreSQL support not built";
  }
  void removeDatabase() override { schema_.drop(); }

 private:
  PostgresTestSchema schema_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(SharedStorePostgresTest);
