// ListingReducer and ExportReader: the quantile rules, hostile listings skipped and
// counted, a cut document failing whole, and the same prices whatever the pieces.

#include "LisskinsSource.hpp"
#include "ListingReducer.hpp"
#include "mocks/Fixture.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>
#include <vector>

using skinpulse::plugins::lisskins::ExportReader;
using skinpulse::plugins::lisskins::ListingReducer;
using skinpulse::plugins::lisskins::PriceStatistic;
using skinpulse::sdk::PollReport;
using skinpulse::sdk::Status;
using skinpulse::sdk::VariantQuote;

namespace {

// The poll time the lots' unlock_at is held against: after the fixture's locks ended.
constexpr std::int64_t kNow = 1'800'000'000;

PollReport read(std::string_view document, std::size_t step,
                PriceStatistic statistic = PriceStatistic::kP05) {
  ExportReader reader(kNow);
  for (std::size_t at = 0; at < document.size(); at += step) {
    if (!reader.feed(document.substr(at, step))) break;
  }
  return reader.finish(statistic);
}

const VariantQuote* find(const PollReport& batch, const std::string& name) {
  for (const auto& quote : batch.quotes) {
    if (quote.market_hash_name == name) return &quote;
  }
  return nullptr;
}

/// The price of `name` in cents, -1 when the batch has no such item.
std::int64_t priceOf(const PollReport& batch, const std::string& name) {
  const VariantQuote* quote = find(batch, name);
  return quote == nullptr ? -1 : quote->price.cents;
}

std::string exportOf(const std::string& listings) {
  return R"({"last_update":1721675822,"items":[)" + listings + "]}";
}

}  // namespace

class ListingReducerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ListingReducerTest);
  CPPUNIT_TEST(testMedianOddAndEven);
  CPPUNIT_TEST(testP05NearestRank);
  CPPUNIT_TEST(testFixtureKnownItemInPlausibleRange);
  CPPUNIT_TEST(testStatistics);
  CPPUNIT_TEST(testSameResultWhateverThePieces);
  CPPUNIT_TEST(testHostileListingsAreSkippedAndCounted);
  CPPUNIT_TEST(testCutDocumentFailsWhole);
  CPPUNIT_TEST(testNotAnExportIsMalformed);
  CPPUNIT_TEST(testMissingLastUpdateLeavesTimeToTheHost);
  CPPUNIT_TEST(testDistinctNamesAreBounded);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testMedianOddAndEven() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, ListingReducer::medianOf({5}));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{20}, ListingReducer::medianOf({10, 20, 90}));
    // Even: the mean of the middle two, half a cent rounded up.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{15}, ListingReducer::medianOf({10, 20}));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{16}, ListingReducer::medianOf({10, 21}));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{25}, ListingReducer::medianOf({1, 20, 30, 1000}));
  }

  void testP05NearestRank() {
    std::vector<std::int32_t> prices;
    for (int i = 1; i <= 20; ++i) prices.push_back(i * 100);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, ListingReducer::p05Of({7}));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{100}, ListingReducer::p05Of(prices));  // 20: the minimum
    prices.push_back(2100);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{200}, ListingReducer::p05Of(prices));  // 21: the 2nd
    prices.clear();
    for (int i = 1; i <= 100; ++i) prices.push_back(i);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, ListingReducer::p05Of(prices));
    prices.push_back(101);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{6}, ListingReducer::p05Of(prices));
  }

  void testFixtureKnownItemInPlausibleRange() {
    const PollReport batch = read(skinpulse::test::fixture("lisskins_export_shape.json"), 4096);
    CPPUNIT_ASSERT_MESSAGE(batch.status.message(), batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, batch.quotes.size());
    const VariantQuote* ak = find(batch, "AK-47 | Redline (Field-Tested)");
    CPPUNIT_ASSERT(ak != nullptr);
    // USD major units in the feed, cents here: the classic x100 bug lands far outside.
    CPPUNIT_ASSERT(ak->price.form == skinpulse::sdk::QuotedPrice::Form::kCents);
    CPPUNIT_ASSERT(ak->price.cents >= 1000 && ak->price.cents <= 6000);
    // 22 listings, one bait at $3.10: p05 is the 2nd lowest, not the bait.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1405}, ak->price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{22}, ak->listings.value_or(-1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1721675822}, ak->observed_at.value_or(0));
    CPPUNIT_ASSERT_EQUAL(std::string("USD"), ak->currency);
    CPPUNIT_ASSERT(!ak->kind.has_value());  // the instance's kind, ask by default
    // PHP-style escapes decode to the catalogue's spelling.
    CPPUNIT_ASSERT(find(batch, "StatTrak\xE2\x84\xA2 M4A1-S | Decimator (Minimal Wear)"));
    const VariantQuote* falchion = find(batch, "Falchion Case");
    CPPUNIT_ASSERT(falchion != nullptr);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, falchion->listings.value_or(-1));  // null price skipped
  }

  void testStatistics() {
    const std::string fixture = skinpulse::test::fixture("lisskins_export_shape.json");
    const auto ak = [&](PriceStatistic statistic) {
      const PollReport batch = read(fixture, fixture.size(), statistic);
      return priceOf(batch, "AK-47 | Redline (Field-Tested)");
    };
    CPPUNIT_ASSERT_EQUAL(std::int64_t{310}, ak(PriceStatistic::kMin));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1405}, ak(PriceStatistic::kP05));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1757}, ak(PriceStatistic::kMedian));  // (1738+1775)/2 up
    const PollReport medians = read(fixture, fixture.size(), PriceStatistic::kMedian);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{12050}, priceOf(medians, "AWP | Asiimov (Field-Tested)"));
    CPPUNIT_ASSERT_EQUAL(
        std::int64_t{2012},
        priceOf(medians, "StatTrak\xE2\x84\xA2 M4A1-S | Decimator (Minimal Wear)"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{124900}, priceOf(medians, "Sticker | Crown (Foil)"));
  }

  void testSameResultWhateverThePieces() {
    const std::string fixture = skinpulse::test::fixture("lisskins_export_shape.json");
    const auto summary = [](const PollReport& batch) {
      std::string out = batch.status.message();
      for (const auto& q : batch.quotes) {
        out += q.market_hash_name + "=" + std::to_string(q.price.cents) + "/" +
               std::to_string(q.listings.value_or(-1)) + ";";
      }
      return out;
    };
    const std::string whole = summary(read(fixture, fixture.size()));
    CPPUNIT_ASSERT_EQUAL(whole, summary(read(fixture, 1)));
    CPPUNIT_ASSERT_EQUAL(whole, summary(read(fixture, 7)));
    CPPUNIT_ASSERT_EQUAL(whole, summary(read(fixture, 16384)));
  }

  void testHostileListingsAreSkippedAndCounted() {
    const std::string document = exportOf(
        R"({"name":"A","price":1e999},)"  // beyond double
        R"({"name":"A","price":)" +
        std::string(500, '9') +
        "},"                                             // a huge number
        R"({"price":2.5},)"                              // no name
        R"({"name":"   ","price":2.5},)"                 // a blank name
        R"({"name":17,"price":2.5},)"                    // a name that is not a string
        R"({"name":"A","price":"2.5"},)"                 // a price that is a string
        R"({"name":"A","price":-3},)"                    // negative
        R"({"name":"A","price":0.001},)"                 // zero cents
        R"({"name":"A","price":20000000},)"              // beyond any item
        R"({"name":{"deep":[[[{"x":1}]]]},"price":1},)"  // nested garbage as name
        R"(42,"text",null,[1,2],)"                       // not listings at all
        R"({"name":"A","price":2.5,"stickers":[{"name":"B","price":9}]})");  // the good one
    ExportReader reader(kNow);
    CPPUNIT_ASSERT(reader.feed(document));
    const PollReport batch = reader.finish(PriceStatistic::kMin);
    CPPUNIT_ASSERT_MESSAGE(batch.status.message(), batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, batch.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::string("A"), batch.quotes[0].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{250}, batch.quotes[0].price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, reader.counts().listings);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{14}, reader.counts().skipped);
  }

  void testCutDocumentFailsWhole() {
    const std::string fixture = skinpulse::test::fixture("lisskins_export_shape.json");
    for (std::size_t cut : {std::size_t{1}, fixture.size() / 2, fixture.size() - 3}) {
      const PollReport batch = read(fixture.substr(0, cut), 7);
      CPPUNIT_ASSERT(batch.status.code() == Status::Code::kMalformed);
      CPPUNIT_ASSERT(batch.quotes.empty());  // no partial prices
    }
  }

  void testNotAnExportIsMalformed() {
    for (const char* other : {"[]", "{}", R"({"items":{}})", R"({"last_update":5})", "null",
                              R"({"items":[]} trailing)", "<html>"}) {
      const PollReport batch = read(other, 3);
      CPPUNIT_ASSERT_MESSAGE(other, batch.status.code() == Status::Code::kMalformed);
    }
    // An empty export is an export: no prices, no failure.
    const PollReport empty = read(R"({"last_update":1,"items":[]})", 3);
    CPPUNIT_ASSERT(empty.status.isOk());
    CPPUNIT_ASSERT(empty.quotes.empty());
  }

  void testDistinctNamesAreBounded() {
    ListingReducer reducer(kNow, 2);
    skinpulse::plugins::lisskins::StreamJsonParser parser(reducer, {32, 1024});
    CPPUNIT_ASSERT(parser.feed(exportOf(R"({"name":"A","price":1},{"name":"B","price":2},)"
                                        R"({"name":"C","price":3},{"name":"A","price":4})")));
    CPPUNIT_ASSERT(parser.finish());
    const auto items = reducer.summarize();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, items.size());  // A and B; C is one name too many
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, items[0].count);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, reducer.counts().skipped);
  }

  void testMissingLastUpdateLeavesTimeToTheHost() {
    const PollReport batch = read(R"({"items":[{"name":"A","price":1}],"last_update":"x"})", 5);
    CPPUNIT_ASSERT(batch.status.isOk());
    CPPUNIT_ASSERT(!batch.quotes.at(0).observed_at.has_value());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ListingReducerTest);
