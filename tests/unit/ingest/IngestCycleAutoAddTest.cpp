// IngestCycle with [catalog] auto_add (docs/api.md §18): a name missing from the catalogue
// joins it once two source instances report it, with its fields parsed from the name and,
// for a Doppler, its variant items; its rows of that cycle are stored. Junk never joins.

#include "OneItemStore.hpp"
#include "common/Time.hpp"
#include "ingest/IngestCycle.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

const std::string kKnife = "★ StatTrak™ Karambit | Doppler (Factory New)";
const std::string kHowl = "M4A4 | Howl (Factory New)";

sdk::VariantQuote quote(const std::string& name, std::int64_t cents,
                        const std::string& variant = "") {
  sdk::VariantQuote q;
  q.market_hash_name = name;
  q.price.form = sdk::QuotedPrice::Form::kCents;
  q.price.cents = cents;
  q.variant = variant;
  return q;
}

ingest::SourceBatch batch(const std::string& source, std::vector<sdk::VariantQuote> quotes) {
  ingest::SourceBatch b;
  b.source = source;
  b.poll_time = time::nowSeconds();
  b.quotes = std::move(quotes);
  return b;
}

}  // namespace

class IngestCycleAutoAddTest : public testing::OneItemStore {
  CPPUNIT_TEST_SUITE(IngestCycleAutoAddTest);
  CPPUNIT_TEST(aNameTwoSourcesReportJoinsWithItsVariants);
  CPPUNIT_TEST(offAddsNothing);
  CPPUNIT_TEST_SUITE_END();

 public:
  IngestCycleAutoAddTest() : OneItemStore("AK-47 | Redline (Field-Tested)", 1000) {}

  void aNameTwoSourcesReportJoinsWithItsVariants() {
    ingest::IngestCycle cycle(*db_, *catalog_, latest_, true, 2);
    // One source is not enough; junk is refused whatever reports it.
    auto outcome = cycle.run({batch("a", {quote(kHowl, 900000), quote("#CSGO_Type_Knife", 5)}),
                              batch("b", {quote("#CSGO_Type_Knife", 5)})});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, catalog_->snapshot()->items().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, outcome.sources.at("a").rejected.at("not in catalogue"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, outcome.sources.at("b").rejected.at("junk name"));

    // The Howl's second source, and a Doppler two sources report in one cycle.
    outcome =
        cycle.run({batch("a", {quote(kKnife, 250000, "Ruby"), quote(kKnife, 90000, "Phase 2")}),
                   batch("b", {quote(kHowl, 910000), quote(kKnife, 95000)})});
    const auto snapshot = catalog_->snapshot();
    const auto* howl = snapshot->findByName(kHowl);
    CPPUNIT_ASSERT(howl != nullptr);
    CPPUNIT_ASSERT_EQUAL(std::string("M4A4"), howl->record.weapon_type);
    CPPUNIT_ASSERT_EQUAL(std::string("Howl"), howl->record.skin_name);
    CPPUNIT_ASSERT(!howl->record.stattrak);
    const auto* knife = snapshot->findByName(kKnife);
    CPPUNIT_ASSERT(knife != nullptr);
    CPPUNIT_ASSERT(knife->record.stattrak);
    CPPUNIT_ASSERT_EQUAL(std::size_t{7}, knife->variants.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1 + 1 + 1 + 7}, snapshot->items().size());
    // Stored in the cycle that added them: the Ruby, the Phase 2, the base at its cheapest
    // row per source, and the Howl's second row.
    const auto* ruby = snapshot->findVariant(kKnife, "Ruby");
    CPPUNIT_ASSERT_EQUAL(std::int64_t{250000}, latest_.of(ruby->record.id).at(0).newest.price);
    std::map<std::string, std::int64_t> base;
    for (const auto& entry : latest_.of(knife->record.id))
      base[entry.newest.source] = entry.newest.price;
    CPPUNIT_ASSERT_EQUAL(std::int64_t{90000}, base.at("a"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{95000}, base.at("b"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{910000}, latest_.of(howl->record.id).at(0).newest.price);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, outcome.sources.at("a").merged);
    // In the store too, under the same ids.
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, db_->catalog().allItems().size());
  }

  void offAddsNothing() {
    ingest::IngestCycle cycle(*db_, *catalog_, latest_, false, 1);
    cycle.run({batch("a", {quote(kHowl, 900000)}), batch("b", {quote(kHowl, 900000)})});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, db_->catalog().allItems().size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IngestCycleAutoAddTest);
