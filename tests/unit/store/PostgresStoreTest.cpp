// The store contract on PostgreSQL. Needs SKINPULSE_TEST_POSTGRES_URL (CI sets it); run
// by hand without it, every test says it was skipped and passes. Each test starts from
// an empty `public` schema, so the database must be one the tests may wipe.

#include <cstdlib>

#include <Poco/Data/PostgreSQL/Connector.h>

#include "StoreContract.hpp"
#include "store/DatabaseUrl.hpp"

using Poco::Data::Keywords::now;

// CppUnit names suites by their type, namespace included, and CTest runs the suite by
// the file name: suites live in the global namespace.
using namespace skinpulse;
using skinpulse::test::StoreContract;

class PostgresStoreTest : public StoreContract {
  CPPUNIT_TEST_SUB_SUITE(PostgresStoreTest, StoreContract);
  CPPUNIT_TEST(testWrongPasswordIsReportedWithoutIt);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testWrongPasswordIsReportedWithoutIt() {
    if (skipped()) return;
    // The configured URL with its password replaced.
    const auto scheme_end = url_.find("://") + 3;
    const auto at = url_.rfind('@');
    CPPUNIT_ASSERT(at != std::string::npos && at > scheme_end);
    const auto colon = url_.find(':', scheme_end);
    const std::string user = url_.substr(scheme_end, std::min(colon, at) - scheme_end);
    const std::string wrong = url_.substr(0, scheme_end) + user + ":Wr0ng-S3cret" + url_.substr(at);
    try {
      openDatabase(wrong, migrationsDir());
      CPPUNIT_FAIL("a wrong password must not open the database");
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      CPPUNIT_ASSERT_MESSAGE(message, message.find("Wr0ng-S3cret") == std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(message, message.find("password authentication failed") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(message, message.find(":***@") != std::string::npos);
    }
  }

 protected:
  std::string cleanDatabaseUrl() override {
    const char* url = std::getenv("SKINPULSE_TEST_POSTGRES_URL");
    if (url == nullptr || *url == '\0') return "";
    Poco::Data::PostgreSQL::Connector::registerConnector();
    Poco::Data::Session admin("PostgreSQL", parseDatabaseUrl(url).connection_string);
    admin << "SET client_min_messages TO warning", now;
    admin << "DROP SCHEMA IF EXISTS public CASCADE", now;
    admin << "CREATE SCHEMA public", now;
    return url;
  }
  std::string skipReason() const override { return "SKINPULSE_TEST_POSTGRES_URL not set"; }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PostgresStoreTest);
