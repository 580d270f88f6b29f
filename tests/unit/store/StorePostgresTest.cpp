// The store contract on PostgreSQL; the name ends in PostgresTest, so CTest labels it
// needs-postgres. Needs SKINPULSE_TEST_POSTGRES_URL (CI sets it); run by hand without it,
// every test says it was skipped and passes. Each test gets a new, empty schema of its
// own (through search_path in the URL), dropped afterwards: other suites may use the
// same database at the same time (ctest -j).

#include "StoreContract.hpp"
#include "mocks/PostgresTestSchema.hpp"

// CppUnit names suites by their type, namespace included, and CTest runs the suite by
// the file name: suites live in the global namespace.
using namespace skinpulse;
using skinpulse::test::PostgresTestSchema;
using skinpulse::test::StoreContract;

class StorePostgresTest : public StoreContract {
  CPPUNIT_TEST_SUB_SUITE(StorePostgresTest, StoreContract);
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
      store::openDatabase(wrong, migrationsDir());
      CPPUNIT_FAIL("a wrong password must not open the database");
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      CPPUNIT_ASSERT_MESSAGE(message, message.find("Wr0ng-S3cret") == std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(message,
                             message.find("password authentication failed") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(message, message.find(":***@") != std::string::npos);
    }
  }

 protected:
  std::string cleanDatabaseUrl() override {
    const std::string server = PostgresTestSchema::serverUrl();
    if (server.empty()) return "";  // skipReason() says why
    return schema_.create(server, "store_test");
  }
  std::string skipReason() const override {
#ifdef SKINPULSE_WITH_POSTGRES
    return "SKINPULSE_TEST_POSTGRES_URL not set";
#else
    return "built with SKINPULSE_WITH_POSTGRES=OFF";
#endif
  }
  void removeDatabase() override { schema_.drop(); }

 private:
  PostgresTestSchema schema_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(StorePostgresTest);
