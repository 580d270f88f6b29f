#include "portfolio/CostCsvReader.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::portfolio;

namespace {

using Fields = std::vector<std::string>;

// The line InvalidCsv names for `text`, or 0 when it is read.
std::size_t refusedOnLine(std::string_view text, const CsvLimits& limits = {}) {
  try {
    readCsv(text, limits);
  } catch (const InvalidCsv& e) {
    return e.line();
  }
  return 0;
}

}  // namespace

class CostCsvReaderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CostCsvReaderTest);
  CPPUNIT_TEST(readsHeaderAndRecordsWithTheirLines);
  CPPUNIT_TEST(quotedFieldsKeepCommasQuotesAndLineBreaks);
  CPPUNIT_TEST(skipsEmptyLinesAndTheByteOrderMark);
  CPPUNIT_TEST(refusesBadQuotingOnItsLine);
  CPPUNIT_TEST(refusesTextThatIsNotUtf8);
  CPPUNIT_TEST(refusesAMissingHeaderAndRaggedRows);
  CPPUNIT_TEST(refusesMoreRowsOrFieldsThanTheLimits);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsHeaderAndRecordsWithTheirLines() {
    const auto table = readCsv("a,b,c\r\n1,2,3\n4,,6");
    CPPUNIT_ASSERT((table.header.fields == Fields{"a", "b", "c"}));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, table.header.line);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, table.records.size());
    CPPUNIT_ASSERT((table.records[0].fields == Fields{"1", "2", "3"}));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, table.records[0].line);
    CPPUNIT_ASSERT((table.records[1].fields == Fields{"4", "", "6"}));
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, table.records[1].line);
    // A trailing comma is one more (empty) field; spaces are data.
    const auto spaced = readCsv("a,b\n x ,\n");
    CPPUNIT_ASSERT((spaced.records[0].fields == Fields{" x ", ""}));
  }

  void quotedFieldsKeepCommasQuotesAndLineBreaks() {
    const auto table = readCsv(
        "name,n\r\n\"Case, Recoil\",1\r\n\"12\"\" Knife\",2\r\n\"two\r\nlines\",3\r\nlast,4\r\n");
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, table.records.size());
    CPPUNIT_ASSERT_EQUAL(std::string("Case, Recoil"), table.records[0].fields[0]);
    CPPUNIT_ASSERT_EQUAL(std::string("12\" Knife"), table.records[1].fields[0]);
    CPPUNIT_ASSERT_EQUAL(std::string("two\r\nlines"), table.records[2].fields[0]);
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, table.records[2].line);
    CPPUNIT_ASSERT_EQUAL(std::size_t{6}, table.records[3].line);  // after the two-line field
    CPPUNIT_ASSERT_EQUAL(std::string(""), readCsv("a\n\"\"\n").records[0].fields[0]);
  }

  void skipsEmptyLinesAndTheByteOrderMark() {
    const auto table = readCsv("\xEF\xBB\xBF\n\nA,B\r\n\r\n1,2\n\n");
    CPPUNIT_ASSERT((table.header.fields == Fields{"A", "B"}));
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, table.header.line);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, table.records.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, table.records[0].line);
    CPPUNIT_ASSERT(readCsv("a,b\n").records.empty());  // a header alone is a file
  }

  void refusesBadQuotingOnItsLine() {
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, refusedOnLine("a,b\n12\" Knife,1\n"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, refusedOnLine("a,b\n1,2\n\"x\"y,1\n"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, refusedOnLine("a,b\n1, \"x\"\n"));  // a space before
    // A quote that never closes is named where it opened.
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, refusedOnLine("a,b\n\"open,1\n2,3\n"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, refusedOnLine("a,b\n1,2\r3\n"));  // a lone CR
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, refusedOnLine("a,b\n1,2\r"));
    try {
      readCsv("a,b\n12\" Knife,1\n");
      CPPUNIT_FAIL("read");
    } catch (const InvalidCsv& e) {
      CPPUNIT_ASSERT_EQUAL(std::string("line 2: a quote inside an unquoted field (quote the "
                                       "whole field)"),
                           std::string(e.what()));
    }
  }

  void refusesTextThatIsNotUtf8() {
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, refusedOnLine("a,b\n1,2\nM\xE4rz,3\n"));  // Latin-1
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, refusedOnLine("a,\xC0\xAF\n"));           // overlong
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, refusedOnLine("a,\xED\xA0\x80\n"));       // surrogate
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, refusedOnLine("a,\xF4\x90\x80\x80\n"));   // > U+10FFFF
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, refusedOnLine("a,b\n1,\xE2\x82"));        // cut short
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, refusedOnLine(std::string_view("a,b\n1,\0\n", 8)));
    CPPUNIT_ASSERT_EQUAL(std::size_t{0},
                         refusedOnLine("a,b\n\xE2\x98\x85 Karambit,\xF0\x9F\x94\xA5\n"));
  }

  void refusesAMissingHeaderAndRaggedRows() {
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, refusedOnLine(""));
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, refusedOnLine("\r\n\n"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, refusedOnLine("a,b,c\n1,2,3\n1,2\n"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, refusedOnLine("a,b\n1,2,3\n"));
  }

  void refusesMoreRowsOrFieldsThanTheLimits() {
    const CsvLimits limits{2, 3};
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, refusedOnLine("a\n1\n2\n", limits));
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, refusedOnLine("a\n1\n2\n3\n", limits));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, refusedOnLine("a,b,c,d\n", limits));
    // The default: 10,000 rows.
    std::string text = "a\n";
    for (int i = 0; i < 10'000; ++i) text += "1\n";
    CPPUNIT_ASSERT_EQUAL(std::size_t{10'000}, readCsv(text).records.size());
    text += "1\n";
    CPPUNIT_ASSERT_EQUAL(std::size_t{10'002}, refusedOnLine(text));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CostCsvReaderTest);
