#include "portfolio/CostCsvCells.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::portfolio;

namespace {
using Cents = std::optional<std::int64_t>;
}

class CostCsvCellsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CostCsvCellsTest);
  CPPUNIT_TEST(textLosesTheExportsFormulaGuardAndBlanks);
  CPPUNIT_TEST(quantitiesAreWholePositiveNumbers);
  CPPUNIT_TEST(amountsHaveTheCurrencysDecimalsAtMost);
  CPPUNIT_TEST(datesAreDaysOrRfc3339Times);
  CPPUNIT_TEST_SUITE_END();

 public:
  void textLosesTheExportsFormulaGuardAndBlanks() {
    CPPUNIT_ASSERT_EQUAL(std::string("=HYPERLINK(1)"), csvCellText("'=HYPERLINK(1)"));
    CPPUNIT_ASSERT_EQUAL(std::string("+1"), csvCellText("'+1"));
    CPPUNIT_ASSERT_EQUAL(std::string("-5"), csvCellText("'-5"));
    CPPUNIT_ASSERT_EQUAL(std::string("@SUM(A1)"), csvCellText("'@SUM(A1)"));
    // Only before a formula character: an apostrophe of the text itself stays.
    CPPUNIT_ASSERT_EQUAL(std::string("'Tis"), csvCellText("'Tis"));
    CPPUNIT_ASSERT_EQUAL(std::string("'"), csvCellText("'"));
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"),
                         csvCellText("  AK-47 | Redline (Field-Tested)\t"));
  }

  void quantitiesAreWholePositiveNumbers() {
    CPPUNIT_ASSERT(csvQuantity("1") == Cents(1));
    CPPUNIT_ASSERT(csvQuantity(" 25 ") == Cents(25));
    CPPUNIT_ASSERT(csvQuantity("1000000") == Cents(kMaxCsvQuantity));
    for (const char* bad :
         {"", "0", "-1", "+1", "1.0", "1e3", "1000001", "two", "99999999999999999999"}) {
      CPPUNIT_ASSERT_MESSAGE(bad, !csvQuantity(bad));
    }
  }

  void amountsHaveTheCurrencysDecimalsAtMost() {
    CPPUNIT_ASSERT(csvAmount("12.50", 2) == Cents(1250));
    CPPUNIT_ASSERT(csvAmount("12.5", 2) == Cents(1250));
    CPPUNIT_ASSERT(csvAmount("12", 2) == Cents(1200));
    CPPUNIT_ASSERT(csvAmount("0", 2) == Cents(0));
    CPPUNIT_ASSERT(csvAmount(" 0.07 ", 2) == Cents(7));
    CPPUNIT_ASSERT(csvAmount("1250", 0) == Cents(1250));   // JPY
    CPPUNIT_ASSERT(csvAmount("1.234", 3) == Cents(1234));  // KWD
    CPPUNIT_ASSERT(csvAmount("10000000000000", 2) == Cents(1'000'000'000'000'000));
    for (const char* bad : {"", "12.505", "12.", ".5", "-1", "+1", "1,234.56", "12,50", "$12",
                            "1e3", "12.5 EUR", "100000000000000"}) {
      CPPUNIT_ASSERT_MESSAGE(bad, !csvAmount(bad, 2));
    }
    CPPUNIT_ASSERT(!csvAmount("12.5", 0));
  }

  void datesAreDaysOrRfc3339Times() {
    CPPUNIT_ASSERT(csvDate("2026-11-20") == Cents(1'795'132'800));
    CPPUNIT_ASSERT(csvDate("2026-11-20T18:00:00Z") == Cents(1'795'132'800 + 18 * 3600));
    CPPUNIT_ASSERT(csvDate("2026-11-20T19:00:00+01:00") == Cents(1'795'132'800 + 18 * 3600));
    CPPUNIT_ASSERT(csvDate("2026-11-20T13:30:00.250-04:30") == Cents(1'795'132'800 + 18 * 3600));
    for (const char* bad : {"20.11.2026", "2026-13-01", "2026-02-30", "2026-11-20T18:00:00",
                            "2026-11-20T18:00:00+1:00", "2026-11-20T18:00:00+24:00", "yesterday"}) {
      CPPUNIT_ASSERT_MESSAGE(bad, !csvDate(bad));
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CostCsvCellsTest);
