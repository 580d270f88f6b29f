// Splitting migration files into statements.

#include "store/Sql.hpp"
#include "store/SqlScript.hpp"

#include <cppunit/extensions/HelperMacros.h>

// CppUnit names suites by their type, namespace included, and CTest runs the suite by
// the file name: suites live in the global namespace.
using namespace skinpulse;

class SqlScriptTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SqlScriptTest);
  CPPUNIT_TEST(testSplitsOnSemicolonsOutsideCommentsAndQuotes);
  CPPUNIT_TEST(testPlaceholdersForPostgres);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testSplitsOnSemicolonsOutsideCommentsAndQuotes() {
    const auto statements = store::splitSqlStatements(
        "-- header; with a semicolon\n"
        "CREATE TABLE a (x TEXT DEFAULT 'a;b'); -- trailing; comment\n"
        "\n"
        "CREATE TABLE \"odd;name\" (y INTEGER);;\n"
        "  INSERT INTO a VALUES ('it''s')  \n");
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, statements.size());
    CPPUNIT_ASSERT_EQUAL(std::string("CREATE TABLE a (x TEXT DEFAULT 'a;b')"), statements[0]);
    CPPUNIT_ASSERT_EQUAL(std::string("CREATE TABLE \"odd;name\" (y INTEGER)"), statements[1]);
    CPPUNIT_ASSERT_EQUAL(std::string("INSERT INTO a VALUES ('it''s')"), statements[2]);
    CPPUNIT_ASSERT(store::splitSqlStatements("-- only a comment\n  ;\n").empty());
  }

  void testPlaceholdersForPostgres() {
    const std::string sql = "SELECT a FROM t WHERE b = ? AND c IN (?, ?)";
    CPPUNIT_ASSERT_EQUAL(sql, store::adaptPlaceholders(store::Backend::kSqlite, sql));
    CPPUNIT_ASSERT_EQUAL(std::string("SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"),
                         store::adaptPlaceholders(store::Backend::kPostgres, sql));
    CPPUNIT_ASSERT_EQUAL(std::string("(?, ?), (?, ?)"), store::placeholderRows(2, 2));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SqlScriptTest);
