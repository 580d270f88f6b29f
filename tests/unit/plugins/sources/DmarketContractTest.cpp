// DMarket aggregated-prices as public clients see it (tests/fixtures/upstream/dmarket/):
// prices as {"Currency":"USD","Amount":"1500"} objects and as plain strings, counts as
// numbers and as strings; an unreadable price skipped and counted, another currency too,
// and a batch of decimal Amounts refused under price_unit = cents (off by x100 otherwise).

#include "ContractSupport.hpp"
#include "DmarketParse.hpp"

using namespace sources_contract_test;
using skinpulse::plugins::dmarket::parseAggregated;
using skinpulse::plugins::dmarket::ParsedAnswer;
using skinpulse::plugins::dmarket::PriceUnit;
using skinpulse::sdk::PollReport;
using skinpulse::sdk::PriceKind;

namespace {

PollReport asReport(const ParsedAnswer& answer) {
  PollReport report;
  report.rows_read = static_cast<std::int64_t>(answer.rows);
  report.skipped = answer.reasons;
  for (const auto& quote : answer.quotes) report.quotes.push_back(quote);
  return report;
}

const skinpulse::sdk::VariantQuote& side(const PollReport& report, const std::string& title,
                                         PriceKind kind) {
  for (const auto& quote : report.quotes) {
    if (quote.market_hash_name == title && quote.kind == kind) return quote;
  }
  CPPUNIT_FAIL("no " + std::string(skinpulse::sdk::priceKindName(kind)) + " of " + title);
  return report.quotes.front();
}

}  // namespace

class DmarketContractTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DmarketContractTest);
  CPPUNIT_TEST(objectAndStringPricesAreBothRead);
  CPPUNIT_TEST(anotherCurrencyIsSkippedAndCounted);
  CPPUNIT_TEST(decimalAmountsAreRefusedAsCents);
  CPPUNIT_TEST_SUITE_END();

 public:
  void objectAndStringPricesAreBothRead() {
    const ParsedAnswer answer =
        parseAggregated(upstream("dmarket", "aggregated_prices_objects.json"), PriceUnit::kCents);
    CPPUNIT_ASSERT_MESSAGE(answer.error, answer.ok);
    const PollReport report = asReport(answer);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::size_t{6}, report.quotes.size());
    // {"Currency":"USD","Amount":"1500"}: cents in a string.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1500}, centsOf(side(report, "AK-47", PriceKind::kAsk)));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1400}, centsOf(side(report, "AK-47", PriceKind::kBid)));
    // {"Amount":"1230"} without Currency, numeric counts.
    const auto& redline_ask = side(report, "AK-47 | Redline", PriceKind::kAsk);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1100}, centsOf(redline_ask));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30}, redline_ask.listings.value_or(-1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{50},
                         side(report, "AK-47 | Redline", PriceKind::kBid).listings.value_or(-1));
    // Plain strings, string counts.
    const auto& ft_ask = side(report, "AK-47 | Redline (Field-Tested)", PriceKind::kAsk);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1250}, centsOf(ft_ask));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{236}, ft_ask.listings.value_or(-1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1200},
                         centsOf(side(report, "AK-47 | Redline (Field-Tested)", PriceKind::kBid)));
    // A string where the object belongs, and "Amount":"N/A": skipped as bad_price.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, skippedFor(report.skipped, "bad_price"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, answer.skipped);
  }

  void anotherCurrencyIsSkippedAndCounted() {
    // Synthetic: the object form naming another currency is never read as USD cents.
    const ParsedAnswer answer = parseAggregated(
        R"({"aggregatedPrices":[{"title":"Recoil Case","offerBestPrice":{"Currency":"EUR",)"
        R"("Amount":"38"},"offerCount":"5","orderBestPrice":{"Currency":"USD","Amount":35},)"
        R"("orderCount":9}]})",
        PriceUnit::kCents);
    CPPUNIT_ASSERT_MESSAGE(answer.error, answer.ok);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, answer.quotes.size());
    CPPUNIT_ASSERT(answer.quotes[0].kind == PriceKind::kBid);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{35}, answer.quotes[0].price.cents);  // a numeric Amount
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skippedFor(answer.reasons, "other_currency"));
  }

  void decimalAmountsAreRefusedAsCents() {
    const std::string body = upstream("dmarket", "aggregated_prices_decimal_amounts.json");
    const ParsedAnswer cents = parseAggregated(body, PriceUnit::kCents);
    CPPUNIT_ASSERT(!cents.ok);
    CPPUNIT_ASSERT(cents.unit_mismatch);
    CPPUNIT_ASSERT(cents.quotes.empty());
    const ParsedAnswer major = parseAggregated(body, PriceUnit::kMajor);
    CPPUNIT_ASSERT_MESSAGE(major.error, major.ok);
    const PollReport report = asReport(major);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1275},
                         centsOf(side(report, "AK-47 | Phantom Disruptor", PriceKind::kAsk)));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{69}, centsOf(side(report, "Clutch Case", PriceKind::kBid)));
    CPPUNIT_ASSERT_EQUAL(
        std::int64_t{7},
        side(report, "AK-47 | Phantom Disruptor", PriceKind::kAsk).listings.value_or(-1));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DmarketContractTest);
