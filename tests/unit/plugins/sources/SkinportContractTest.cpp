// Skinport /v1/items as it really is (tests/fixtures/upstream/skinport/): USD rows priced,
// a EUR row skipped and counted, each Doppler phase row passed on with its `version` as the
// variant, a row with `version: null` priced as the name itself.

#include "ContractSupport.hpp"
#include "FeedMapping.hpp"
#include "SkinportSource.hpp"

using namespace sources_contract_test;
using skinpulse::plugins::support::parseList;
using skinpulse::plugins::support::RowCounts;
using skinpulse::sdk::PollReport;

class SkinportContractTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SkinportContractTest);
  CPPUNIT_TEST(realRowsArePricedAndTheEuroRowIsCounted);
  CPPUNIT_TEST(dopplerRowsCarryTheirVersionAsVariant);
  CPPUNIT_TEST_SUITE_END();

 public:
  void realRowsArePricedAndTheEuroRowIsCounted() {
    RowCounts counts;
    const PollReport report = parseList(upstream("skinport", "items_rows_real.json"),
                                        skinpulse::plugins::skinport::mapping(), 16, counts);
    CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, report.quotes.size());
    const auto& sticker = quoteOf(report, "Sticker | syrsoN (Glitter) | Rio 2022");
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10}, centsOf(sticker));  // min_price 0.1
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, sticker.listings.value_or(-1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1731283259}, sticker.observed_at.value_or(0));
    CPPUNIT_ASSERT(!sticker.kind.has_value());  // the instance's kind: ask
    CPPUNIT_ASSERT_EQUAL(std::string(), sticker.variant);
    // "10 Year Birthday Sticker Capsule" is quoted in EUR: never stored as USD cents.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skippedFor(report.skipped, "other_currency"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, totalSkipped(report.skipped));
  }

  void dopplerRowsCarryTheirVersionAsVariant() {
    RowCounts counts;
    const PollReport report = parseList(upstream("skinport", "items_doppler_rows_quoted.json"),
                                        skinpulse::plugins::skinport::mapping(), 16, counts);
    CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, report.quotes.size());  // no row of a name dropped
    const std::string bayonet = "★ Bayonet | Doppler (Factory New)";
    CPPUNIT_ASSERT_EQUAL(std::int64_t{40907}, centsOf(quoteOf(report, bayonet, "Phase 3")));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{177185}, centsOf(quoteOf(report, bayonet, "Ruby")));
    // Dearer than Steam's listing cap, and no variant.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{736479},
                         centsOf(quoteOf(report, "AWP | Dragon Lore (Field-Tested)")));
    CPPUNIT_ASSERT(report.skipped.empty());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SkinportContractTest);
