// DATABASE_URL parsing and the errors an operator sees for a bad one.

#include "store/Database.hpp"
#include "store/DatabaseUrl.hpp"

#include <cppunit/extensions/HelperMacros.h>

// CppUnit names suites by their type, namespace included, and CTest runs the suite by
// the file name: suites live in the global namespace.
using namespace skinpulse;

class DatabaseUrlTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DatabaseUrlTest);
  CPPUNIT_TEST(testSqlitePaths);
  CPPUNIT_TEST(testPostgresBecomesConninfo);
  CPPUNIT_TEST(testPostgresDecodesAndQuotes);
  CPPUNIT_TEST(testMalformedUrlsNameTheProblemNotThePassword);
  CPPUNIT_TEST(testUnreachableServerNamedWithoutPassword);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testSqlitePaths() {
    auto url = store::parseDatabaseUrl("sqlite:///var/lib/skinpulse/skinpulse.db");
    CPPUNIT_ASSERT(url.backend == store::Backend::kSqlite);
    CPPUNIT_ASSERT_EQUAL(std::string("/var/lib/skinpulse/skinpulse.db"), url.connection_string);
    CPPUNIT_ASSERT(!url.in_memory);
    CPPUNIT_ASSERT_EQUAL(std::string("./var/skinpulse.db"),
                         store::parseDatabaseUrl("sqlite://./var/skinpulse.db").connection_string);
    CPPUNIT_ASSERT_EQUAL(std::string("var/x.db"),
                         store::parseDatabaseUrl("sqlite://var/x.db").connection_string);
    CPPUNIT_ASSERT(store::parseDatabaseUrl("sqlite://:memory:").in_memory);
    CPPUNIT_ASSERT(store::parseDatabaseUrl("SQLite://:memory:").in_memory);  // scheme is case-blind
  }

  void testPostgresBecomesConninfo() {
    const auto url =
        store::parseDatabaseUrl("postgresql://skinpulse:skinpulse@127.0.0.1:5432/skinpulse_test");
    CPPUNIT_ASSERT(url.backend == store::Backend::kPostgres);
    CPPUNIT_ASSERT_EQUAL(std::string("host='127.0.0.1' port=5432 user='skinpulse' "
                                     "password='skinpulse' dbname='skinpulse_test' "
                                     "connect_timeout=10 application_name=skinpulse"),
                         url.connection_string);
    CPPUNIT_ASSERT_EQUAL(std::string("postgresql://skinpulse:***@127.0.0.1:5432/skinpulse_test"),
                         url.redacted);
    CPPUNIT_ASSERT_EQUAL(
        std::string("host='db.internal' dbname='prices' connect_timeout=10 "
                    "application_name=skinpulse sslmode='require'"),
        store::parseDatabaseUrl("postgres://db.internal/prices?sslmode=require").connection_string);
    CPPUNIT_ASSERT_EQUAL(std::string("host='::1' port=5433 dbname='d' connect_timeout=10 "
                                     "application_name=skinpulse"),
                         store::parseDatabaseUrl("postgresql://[::1]:5433/d").connection_string);
  }

  void testPostgresDecodesAndQuotes() {
    // user "me@corp", password "p@ss:w'o\rd", database "my db" is refused (space).
    const auto url = store::parseDatabaseUrl("postgresql://me%40corp:p%40ss%3Aw'o%5Crd@h/db%2D1");
    CPPUNIT_ASSERT_EQUAL(std::string("host='h' user='me@corp' password='p@ss:w\\'o\\\\rd' "
                                     "dbname='db-1' connect_timeout=10 application_name=skinpulse"),
                         url.connection_string);
    CPPUNIT_ASSERT_EQUAL(std::string("p@ss:w'o\\rd"), url.password);
    CPPUNIT_ASSERT(url.redacted.find("p@ss") == std::string::npos);
    // Unencoded reserved characters in the password stay in the password.
    const auto raw = store::parseDatabaseUrl("postgresql://u:pa/ss?w@rd@h:5432/db");
    CPPUNIT_ASSERT_EQUAL(std::string("pa/ss?w@rd"), raw.password);
    CPPUNIT_ASSERT_EQUAL(std::string("postgresql://u:***@h:5432/db"), raw.redacted);
  }

  void testMalformedUrlsNameTheProblemNotThePassword() {
    expectError("mysql://root:Hunter2Secret@db/x", "unknown scheme 'mysql'");
    expectError("postgresql://u:Hunter2Secret@db", "names no database");
    expectError("postgresql://u:Hunter2Secret@db:54x2/d", "non-numeric port");
    expectError("postgresql://u:Hunter2Secret%zz@db/d", "percent-encoding in the password");
    expectError("postgresql://u:Hunter2%20Secret@db/d", "password contains whitespace");
    expectError("Hunter2Secret", "malformed URL");
    expectError("", "empty");
    expectError("sqlite://", "names no file");
  }

  void testUnreachableServerNamedWithoutPassword() {
    // Port 1 on loopback refuses at once: the error comes from the connection attempt.
    try {
      store::openDatabase("postgresql://skinpulse:Hunter2Secret@127.0.0.1:1/skinpulse",
                          SKINPULSE_SHARE_DIR "/sql");
      CPPUNIT_FAIL("nothing listens on port 1");
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      CPPUNIT_ASSERT_MESSAGE(message, message.find("Hunter2Secret") == std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(
          message,
          message.find("postgresql://skinpulse:***@127.0.0.1:1/skinpulse") != std::string::npos);
    }
  }

 private:
  static void expectError(const std::string& url, const std::string& problem) {
    try {
      store::parseDatabaseUrl(url);
      CPPUNIT_FAIL("accepted " + url);
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      CPPUNIT_ASSERT_MESSAGE(message, message.find(problem) != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(message, message.find("Hunter2") == std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(message, message.starts_with("DATABASE_URL: "));
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DatabaseUrlTest);
