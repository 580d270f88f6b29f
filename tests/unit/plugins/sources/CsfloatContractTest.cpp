// CSFloat's listings page (tests/fixtures/upstream/csfloat/): the documented listing read as
// documented (integer cents, RFC 3339 created_at), a Doppler listing's item.paint_index as
// its variant, an auction skipped and counted.

#include "ContractSupport.hpp"
#include "CsfloatSource.hpp"

using namespace sources_contract_test;
using skinpulse::plugins::csfloat::CheapestListings;
using skinpulse::plugins::csfloat::listingQuotes;
using skinpulse::plugins::csfloat::readListingsPage;
using skinpulse::sdk::PollReport;

class CsfloatContractTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CsfloatContractTest);
  CPPUNIT_TEST(documentedListingsAndPaintIndexVariants);
  CPPUNIT_TEST_SUITE_END();

 public:
  void documentedListingsAndPaintIndexVariants() {
    CheapestListings cheapest;
    PollReport report;
    std::string cursor;
    std::string error;
    CPPUNIT_ASSERT_MESSAGE(
        error, readListingsPage(upstream("csfloat", "listings_page_documented.json"), cheapest,
                                report, cursor, error));
    report.quotes = listingQuotes(cheapest);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, report.quotes.size());
    const auto& poseidon = quoteOf(report, "M4A4 | Poseidon (Factory New)");  // paint 449
    CPPUNIT_ASSERT_EQUAL(std::int64_t{260000}, centsOf(poseidon));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1623617121}, poseidon.observed_at.value_or(0));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{912300},
                         centsOf(quoteOf(report, "★ Karambit | Doppler (Factory New)",
                                         "Black Pearl")));  // paint 417
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skippedFor(report.skipped, "not_buy_now"));
    CPPUNIT_ASSERT(cursor.empty());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CsfloatContractTest);
