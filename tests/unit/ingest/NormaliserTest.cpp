#include "ingest/Normaliser.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

sdk::Observation observation(const std::string& name, sdk::QuotedPrice price,
                             std::optional<std::int64_t> time = std::nullopt,
                             std::int64_t volume = 1) {
  sdk::Observation o;
  o.market_hash_name = name;
  o.price = std::move(price);
  o.observed_at = time;
  o.volume = volume;
  return o;
}

sdk::QuotedPrice text(const std::string& t) {
  sdk::QuotedPrice p;
  p.form = sdk::QuotedPrice::Form::kText;
  p.text = t;
  return p;
}

}  // namespace

class NormaliserTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(NormaliserTest);
  CPPUNIT_TEST(matchesTrimmedNamesExactly);
  CPPUNIT_TEST(countsEveryRejection);
  CPPUNIT_TEST(usesTheSourcesTimeOrThePollTime);
  CPPUNIT_TEST(quotesCarryKindAndListings);
  CPPUNIT_TEST(nonUsdQuotesAreRejectedAsNoRate);
  CPPUNIT_TEST(httpsImagesOfItemsWithoutOne);
  CPPUNIT_TEST_SUITE_END();

  catalog::CatalogSnapshot catalog_{{store::ItemRecord{
      7, "★ StatTrak™ Karambit | Fade (Factory New)", "Karambit", "Fade", "Covert", true, "", 0}}};

 public:
  void matchesTrimmedNamesExactly() {
    const auto batch = ingest::normalise(
        "steam", 1000,
        {observation("  ★ StatTrak™ Karambit | Fade (Factory New)\xC2\xA0", text("$1,500.00")),
         observation("★ statTrak™ Karambit | Fade (Factory New)", text("$1"))},
        catalog_);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.points.size());
    CPPUNIT_ASSERT_EQUAL(INT64_C(7), batch.points[0].item_id);
    CPPUNIT_ASSERT_EQUAL(INT64_C(150000), batch.points[0].price);
    CPPUNIT_ASSERT_EQUAL(std::string("steam"), batch.points[0].source);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.rejected.at("not in catalogue"));
    CPPUNIT_ASSERT_EQUAL(std::string("★ statTrak™ Karambit | Fade (Factory New)"),
                         batch.unknown_names.at(0));
  }

  void countsEveryRejection() {
    const std::string name = "★ StatTrak™ Karambit | Fade (Factory New)";
    const auto batch = ingest::normalise(
        "s", 1000,
        {observation("", text("1")), observation(name, text("free")), observation(name, text("-1")),
         observation(name, text("1"), std::nullopt, -3), observation(name, text("1"), 1000 + 3600)},
        catalog_);
    CPPUNIT_ASSERT(batch.points.empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.rejected.at("empty market_hash_name"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), batch.rejected.at("price unreadable or not positive"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.rejected.at("negative volume"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.rejected.at("time in the future or invalid"));
  }

  void usesTheSourcesTimeOrThePollTime() {
    const std::string name = "★ StatTrak™ Karambit | Fade (Factory New)";
    const auto batch = ingest::normalise(
        "s", 5000, {observation(name, text("1"), 4000), observation(name, text("2"))}, catalog_);
    CPPUNIT_ASSERT_EQUAL(INT64_C(4000), batch.points.at(0).time);
    CPPUNIT_ASSERT_EQUAL(INT64_C(5000), batch.points.at(1).time);
  }

  void quotesCarryKindAndListings() {
    const std::string name = "★ StatTrak™ Karambit | Fade (Factory New)";
    sdk::VariantQuote own;  // states its kind and a listing count
    own.market_hash_name = name;
    own.price = text("$2");
    own.kind = sdk::PriceKind::kBid;
    own.listings = 12;
    own.currency = "USD";
    sdk::VariantQuote plain;  // takes the instance's kind
    plain.market_hash_name = name;
    plain.price = text("$3");
    plain.observed_at = 900;
    sdk::VariantQuote negative = plain;
    negative.listings = -1;
    const std::string source = "s";
    const auto batch =
        ingest::normalise(ingest::NormaliseInput{source, 1000, sdk::PriceKind::kSale},
                          {observation(name, text("$1"), 800)}, {own, plain, negative}, catalog_);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), batch.points.size());
    CPPUNIT_ASSERT(batch.points[0].kind == sdk::PriceKind::kSale);  // an Observation
    CPPUNIT_ASSERT(!batch.points[0].listings);
    CPPUNIT_ASSERT(batch.points[1].kind == sdk::PriceKind::kBid);
    CPPUNIT_ASSERT_EQUAL(INT64_C(12), batch.points[1].listings.value_or(0));
    CPPUNIT_ASSERT_EQUAL(INT64_C(1000), batch.points[1].time);
    CPPUNIT_ASSERT(batch.points[2].kind == sdk::PriceKind::kSale);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.rejected.at("negative listings"));
    // One series, one kind: the bid of a sale instance has a source of its own, so it
    // shares no (item, source, time) key and no metric series with the sales.
    CPPUNIT_ASSERT_EQUAL(source, batch.points[0].source);
    CPPUNIT_ASSERT_EQUAL(std::string("s-bid"), batch.points[1].source);
    CPPUNIT_ASSERT_EQUAL(source, batch.points[2].source);
  }

  void httpsImagesOfItemsWithoutOne() {
    const std::string name = "★ StatTrak™ Karambit | Fade (Factory New)";
    std::vector<sdk::VariantQuote> quotes(4);
    const char* urls[] = {"http://cdn.example/a.png", "https://cdn.example/a b.png",
                          "https://cdn.example/ok.png", "https://cdn.example/later.png"};
    for (std::size_t i = 0; i < quotes.size(); ++i) {
      quotes[i].market_hash_name = name;
      quotes[i].price = text("1");
      quotes[i].image_url = urls[i];
      quotes[i].observed_at = 900 + static_cast<std::int64_t>(i);
    }
    const std::string source = "s";
    auto batch = ingest::normalise(ingest::NormaliseInput{source, 1000}, {}, quotes, catalog_);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.images.size());  // https, no space; once
    CPPUNIT_ASSERT_EQUAL(INT64_C(7), batch.images[0].first);
    CPPUNIT_ASSERT_EQUAL(std::string("https://cdn.example/ok.png"), batch.images[0].second);
    const catalog::CatalogSnapshot pictured{{store::ItemRecord{
        7, name, "Karambit", "Fade", "Covert", true, "https://cdn.example/own.png", 0}}};
    batch = ingest::normalise(ingest::NormaliseInput{source, 1000}, {}, quotes, pictured);
    CPPUNIT_ASSERT(batch.images.empty());  // an item keeps its own image
  }

  void nonUsdQuotesAreRejectedAsNoRate() {
    const std::string name = "★ StatTrak™ Karambit | Fade (Factory New)";
    std::vector<sdk::VariantQuote> quotes(4);
    const char* currencies[] = {"EUR", "CNY", "", " USD "};
    for (std::size_t i = 0; i < quotes.size(); ++i) {
      quotes[i].market_hash_name = name;
      quotes[i].price = text("12.50");
      quotes[i].currency = currencies[i];
      quotes[i].observed_at = 900 + static_cast<std::int64_t>(i);
    }
    const std::string source = "s";
    const auto batch =
        ingest::normalise(ingest::NormaliseInput{source, 1000}, {}, quotes, catalog_);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), batch.points.size());  // empty and USD
    CPPUNIT_ASSERT_EQUAL(INT64_C(1250), batch.points[0].price);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), batch.rejected.at(std::string(ingest::kRejectedNoRate)));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(NormaliserTest);
