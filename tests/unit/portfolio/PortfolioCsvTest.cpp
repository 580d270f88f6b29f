#include "portfolio/PortfolioCsv.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::portfolio;

class PortfolioCsvTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PortfolioCsvTest);
  CPPUNIT_TEST(plainTextStaysAsItIs);
  CPPUNIT_TEST(rfc4180Quoting);
  CPPUNIT_TEST(formulaCellsAreQuotedAndPrefixed);
  CPPUNIT_TEST(percentages);
  CPPUNIT_TEST(documentWithHeaderCrlfAndNulls);
  CPPUNIT_TEST(anEmptyPortfolioIsTheHeaderAlone);
  CPPUNIT_TEST_SUITE_END();

 public:
  void plainTextStaysAsItIs() {
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"),
                         csvText("AK-47 | Redline (Field-Tested)"));
    CPPUNIT_ASSERT_EQUAL(std::string("★ Karambit | Doppler (Factory New)"),
                         csvText("★ Karambit | Doppler (Factory New)"));
    CPPUNIT_ASSERT_EQUAL(std::string("Sticker | 刀 (Holo)"), csvText("Sticker | 刀 (Holo)"));
    CPPUNIT_ASSERT_EQUAL(std::string(), csvText(""));
    CPPUNIT_ASSERT_EQUAL(std::string("a=b"), csvText("a=b"));  // only the first character
  }

  void rfc4180Quoting() {
    CPPUNIT_ASSERT_EQUAL(std::string("\"Case, Recoil\""), csvText("Case, Recoil"));
    CPPUNIT_ASSERT_EQUAL(std::string("\"12\"\" Knife\""), csvText("12\" Knife"));
    CPPUNIT_ASSERT_EQUAL(std::string("\"two\nlines\""), csvText("two\nlines"));
    CPPUNIT_ASSERT_EQUAL(std::string("\"cr\rhere\""), csvText("cr\rhere"));
  }

  void formulaCellsAreQuotedAndPrefixed() {
    CPPUNIT_ASSERT_EQUAL(std::string("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
                         csvText("=HYPERLINK(\"http://x\",\"y\")"));
    CPPUNIT_ASSERT_EQUAL(std::string("\"'+1+1\""), csvText("+1+1"));
    CPPUNIT_ASSERT_EQUAL(std::string("\"'-2+3\""), csvText("-2+3"));
    CPPUNIT_ASSERT_EQUAL(std::string("\"'@SUM(A1)\""), csvText("@SUM(A1)"));
    CPPUNIT_ASSERT_EQUAL(std::string("\"'\t=1\""), csvText("\t=1"));
    CPPUNIT_ASSERT_EQUAL(std::string("\"'\r=1\""), csvText("\r=1"));
    // A text cell that looks like a negative number is still text from outside: prefixed.
    CPPUNIT_ASSERT_EQUAL(std::string("\"'-5\""), csvText("-5"));
  }

  void percentages() {
    CPPUNIT_ASSERT_EQUAL(std::string("12.50"), csvPercent(12.5));
    CPPUNIT_ASSERT_EQUAL(std::string("-3.25"), csvPercent(-3.25));
    CPPUNIT_ASSERT_EQUAL(std::string("0.00"), csvPercent(-0.001));
    CPPUNIT_ASSERT_EQUAL(std::string(), csvPercent(std::numeric_limits<double>::infinity()));
  }

  void documentWithHeaderCrlfAndNulls() {
    Valuation valuation;
    ValuedHolding loss;
    loss.item_id = 7;
    loss.market_hash_name = "=cmd|' /C calc'!A0";
    loss.quantity = 3;
    loss.current_price = 65;
    loss.total_value = 195;
    loss.imported_at = 1'800'000'000;
    loss.cost_basis = 100;
    loss.cost_total = 300;
    loss.unrealised_pl = -105;
    loss.acquired_at = 1'700'000'000;
    loss.change_24h_percent = -1.5;
    ValuedHolding bare;
    bare.item_id = 8;
    bare.market_hash_name = "Recoil Case";
    bare.quantity = 1;
    bare.imported_at = 1'800'000'000;
    ValuedHolding crafted = bare;
    crafted.item_id = 9;
    crafted.market_hash_name = "AK-47 | Redline (Field-Tested)";
    crafted.account = "76561197960287930";
    crafted.variant = "Ruby";
    crafted.applied = {{"sticker", 0, 5, "Sticker | A, B", 120}, {"charm", 0, {}, "-Charm", {}}};
    crafted.applied_value = 120;
    valuation.holdings = {loss, bare, crafted};
    const std::string expected =
        "item_id,market_hash_name,quantity,currency,current_price,total_value,cost_basis,"
        "cost_total,unrealised_pl,unrealised_pl_percent,change_24h_percent,acquired_at,"
        "imported_at,account,variant,applied,applied_value\r\n"
        "7,\"'=cmd|' /C calc'!A0\",3,USD,0.65,1.95,1.00,3.00,-1.05,-35.00,-1.50,"
        "2023-11-14T22:13:20Z,2027-01-15T08:00:00Z,,,,0.00\r\n"
        "8,Recoil Case,1,USD,0.00,0.00,,,,,,,2027-01-15T08:00:00Z,,,,0.00\r\n"
        "9,AK-47 | Redline (Field-Tested),1,USD,0.00,0.00,,,,,,,2027-01-15T08:00:00Z,"
        "76561197960287930,Ruby,\"Sticker | A, B; -Charm\",1.20\r\n";
    CPPUNIT_ASSERT_EQUAL(expected, portfolioCsv(valuation, Money()));
  }

  void anEmptyPortfolioIsTheHeaderAlone() {
    const auto csv = portfolioCsv(Valuation{}, Money());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1},
                         static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')));
    CPPUNIT_ASSERT(csv.ends_with("applied_value\r\n"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PortfolioCsvTest);
