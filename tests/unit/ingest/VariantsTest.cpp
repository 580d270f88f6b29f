// Item variants and new items (docs/api.md §18) in the daemon's core: the catalogue
// snapshot, the catalogue file's variant lines, the normaliser's routing and merging, the
// name grammar of auto_add and its sightings.

#include "catalog/Catalog.hpp"
#include "catalog/CatalogFile.hpp"
#include "catalog/ItemName.hpp"
#include "catalog/NameSightings.hpp"
#include "ingest/Normaliser.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>
#include <fstream>

using namespace skinpulse;

namespace {

const std::string kBayonet = "★ Bayonet | Doppler (Factory New)";

store::ItemRecord base(std::int64_t id, const std::string& name) {
  return store::ItemRecord{id, name, "Bayonet", "Doppler", "Covert", false, "", 1700000000};
}

store::ItemRecord variant(std::int64_t id, const std::string& name, const std::string& which,
                          std::int64_t of) {
  store::ItemRecord record = base(id, name);
  record.variant = which;
  record.variant_of = of;
  return record;
}

// Skinport's /v1/items lists the name once per `version` (docs/upstreams.md): real prices
// of 2026-09 for this knife, in dollars.
sdk::VariantQuote row(const std::string& version, double dollars, std::int64_t quantity) {
  sdk::VariantQuote quote;
  quote.market_hash_name = kBayonet;
  quote.price.form = sdk::QuotedPrice::Form::kMajor;
  quote.price.major = dollars;
  quote.listings = quantity;
  quote.variant = version;
  return quote;
}

Poco::JSON::Object::Ptr parse(const std::string& json) {
  Poco::JSON::Parser parser;
  return parser.parse(json).extract<Poco::JSON::Object::Ptr>();
}

std::string writeFile(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

class VariantsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(VariantsTest);
  CPPUNIT_TEST(snapshotServesVariantsBesideTheirBase);
  CPPUNIT_TEST(listsBaseItemsUnlessVariantsAsked);
  CPPUNIT_TEST(pluginsSeeBaseItems);
  CPPUNIT_TEST(catalogueFileReadsVariantLines);
  CPPUNIT_TEST(catalogueFileRefusesBadVariantLines);
  CPPUNIT_TEST(skinportPhasesGoToTheirVariantsAndTheCheapestToTheBase);
  CPPUNIT_TEST(rowsOfOneItemAreMergedNeverDropped);
  CPPUNIT_TEST(backfillLineOfAVariant);
  CPPUNIT_TEST(junkNamesAreRefusedAndCounted);
  CPPUNIT_TEST(namesParseIntoTheirFields);
  CPPUNIT_TEST(paintIndexNamesAVariantOfItsFinishOnly);
  CPPUNIT_TEST(sightingsNeedDistinctSourcesWithinTheWindow);
  CPPUNIT_TEST(sightingsStayBounded);
  CPPUNIT_TEST_SUITE_END();

  catalog::Catalog catalog_;

 public:
  void setUp() override {
    // Ids out of file order on purpose: variants are listed in kVariantNames order.
    catalog_.reset(
        {base(10, kBayonet), variant(15, kBayonet, "Ruby", 10),
         variant(11, kBayonet, "Phase 1", 10), variant(12, kBayonet, "Phase 2", 10),
         variant(13, kBayonet, "Phase 3", 10), variant(14, kBayonet, "Phase 4", 10),
         variant(16, kBayonet, "Sapphire", 10),
         store::ItemRecord{20, "Recoil Case", "Container", "", "", false, "", 1700000000}});
  }

  void snapshotServesVariantsBesideTheirBase() {
    const auto snap = catalog_.snapshot();
    CPPUNIT_ASSERT_EQUAL(INT64_C(10), snap->findByName(kBayonet)->record.id);
    CPPUNIT_ASSERT_EQUAL(INT64_C(15), snap->findVariant(kBayonet, "Ruby")->record.id);
    CPPUNIT_ASSERT(snap->findVariant(kBayonet, "Emerald") == nullptr);
    CPPUNIT_ASSERT(snap->findVariant("Recoil Case", "Ruby") == nullptr);

    const auto json = parse(snap->findById(10)->json);
    CPPUNIT_ASSERT(json->isNull("variant"));
    CPPUNIT_ASSERT(json->isNull("variant_of"));
    const auto variants = json->getArray("variants");
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), variants->size());
    const std::vector<std::pair<int, std::string>> expected = {{11, "Phase 1"}, {12, "Phase 2"},
                                                               {13, "Phase 3"}, {14, "Phase 4"},
                                                               {15, "Ruby"},    {16, "Sapphire"}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const auto entry = variants->getObject(static_cast<unsigned>(i));
      CPPUNIT_ASSERT_EQUAL(expected[i].first, entry->getValue<int>("id"));
      CPPUNIT_ASSERT_EQUAL(expected[i].second, entry->getValue<std::string>("variant"));
    }
    const auto ruby = parse(snap->findById(15)->json);
    CPPUNIT_ASSERT_EQUAL(std::string("Ruby"), ruby->getValue<std::string>("variant"));
    CPPUNIT_ASSERT_EQUAL(10, ruby->getValue<int>("variant_of"));
    CPPUNIT_ASSERT_EQUAL(kBayonet, ruby->getValue<std::string>("market_hash_name"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), ruby->getArray("variants")->size());
    const auto plain = parse(snap->findById(20)->json);
    CPPUNIT_ASSERT(plain->isNull("variant"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), plain->getArray("variants")->size());
  }

  void listsBaseItemsUnlessVariantsAsked() {
    const auto snap = catalog_.snapshot();
    catalog::ItemQuery query;
    auto page = catalog::Catalog::query(*snap, query);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), page.total);
    CPPUNIT_ASSERT_EQUAL(INT64_C(20), page.items.at(1)->record.id);
    query.variants = true;
    page = catalog::Catalog::query(*snap, query);
    CPPUNIT_ASSERT_EQUAL(std::size_t(8), page.total);
    CPPUNIT_ASSERT_EQUAL(INT64_C(11), page.items.at(1)->record.id);
    query.q = catalog::lowerUtf8("bayonet");
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), catalog::Catalog::query(*snap, query).total);
    query.variants = false;
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), catalog::Catalog::query(*snap, query).total);
    // The shared unfiltered pages: one per variants flag.
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), parseArray(*snap->unfilteredPage(0, 50, false)));
    CPPUNIT_ASSERT_EQUAL(std::size_t(8), parseArray(*snap->unfilteredPage(0, 50, true)));
  }

  void pluginsSeeBaseItems() {
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), catalog_.size());
    std::size_t visited = 0;
    catalog_.forEach([&](const sdk::CatalogItem&) { return ++visited, true; });
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), visited);
    CPPUNIT_ASSERT_EQUAL(INT64_C(10), catalog_.findByName(kBayonet)->id);
    CPPUNIT_ASSERT_EQUAL(kBayonet, catalog_.findById(15)->market_hash_name);
    // A held variant is polled as its name: its base id, once.
    catalog_.setHeldItems([] { return std::vector<std::int64_t>{15, 12, 20, 10}; });
    CPPUNIT_ASSERT(catalog_.heldItemIds() == (std::vector<std::int64_t>{10, 20}));
  }

  void catalogueFileReadsVariantLines() {
    const auto path = writeFile(
        "skinpulse-variants-ok.jsonl",
        R"j({"market_hash_name":"★ Bayonet | Doppler (Factory New)","weapon_type":"Bayonet","skin_name":"Doppler","rarity":"Covert","stattrak":false,"image_url":""})j"
        "\n"
        R"j({"market_hash_name":"★ Bayonet | Doppler (Factory New)","weapon_type":"Bayonet","skin_name":"Doppler","rarity":"Covert","stattrak":false,"image_url":"","variant":"Black Pearl"})j"
        "\n"
        R"j({"market_hash_name":"Glock-18 | Gamma Doppler (Factory New)","weapon_type":"Glock-18","skin_name":"Gamma Doppler","rarity":"Covert","stattrak":false,"image_url":""})j"
        "\n"
        R"j({"market_hash_name":"Glock-18 | Gamma Doppler (Factory New)","weapon_type":"Glock-18","skin_name":"Gamma Doppler","rarity":"Covert","stattrak":false,"image_url":"","variant":"Emerald"})j"
        "\n");
    const auto entries = catalog::readCatalogFile(path);
    std::filesystem::remove(path);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), entries.size());
    CPPUNIT_ASSERT(entries[0].variant.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("Black Pearl"), entries[1].variant);
    CPPUNIT_ASSERT_EQUAL(std::string("Emerald"), entries[3].variant);
  }

  void catalogueFileRefusesBadVariantLines() {
    const std::string doppler =
        R"j("market_hash_name":"★ Bayonet | Doppler (Factory New)","skin_name":"Doppler")j";
    const std::vector<std::pair<std::string, std::string>> cases = {
        // a Gamma Doppler variant on a Doppler
        {"{" + doppler + "}\n{" + doppler + R"j(,"variant":"Emerald"})j", "not a variant of"},
        // a variant line before its base
        {"{" + doppler + R"j(,"variant":"Ruby"})j" + "\n{" + doppler + "}", "before its base"},
        // twice the same variant
        {"{" + doppler + "}\n{" + doppler + R"j(,"variant":"Ruby"})j" + "\n{" + doppler +
             R"j(,"variant":"Ruby"})j",
         "duplicate"},
        // a finish without variants
        {R"j({"market_hash_name":"AK-47 | Redline (Field-Tested)","skin_name":"Redline"})j"
         "\n"
         R"j({"market_hash_name":"AK-47 | Redline (Field-Tested)","skin_name":"Redline","variant":"Ruby"})j",
         "has no variants"},
    };
    for (const auto& [text, why] : cases) {
      const auto path = writeFile("skinpulse-variants-bad.jsonl", text + "\n");
      try {
        catalog::readCatalogFile(path);
        CPPUNIT_FAIL("accepted: " + text);
      } catch (const std::runtime_error& e) {
        CPPUNIT_ASSERT_MESSAGE(e.what(), std::string(e.what()).find(why) != std::string::npos);
      }
      std::filesystem::remove(path);
    }
  }

  void skinportPhasesGoToTheirVariantsAndTheCheapestToTheBase() {
    const std::string source = "skinport";
    std::vector<sdk::VariantQuote> rows = {row("Phase 1", 611.28, 3), row("Phase 2", 587.5, 5),
                                           row("Phase 3", 409.07, 4), row("Phase 4", 480.0, 2),
                                           row("Ruby", 1771.85, 1),   row("Sapphire", 1650.0, 1)};
    // Each row its own `updated_at`: the base still gets one point, at the newest.
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].observed_at = 900 + std::int64_t(i);
    const auto batch =
        ingest::normalise(ingest::NormaliseInput{source, 1000}, {}, rows, *catalog_.snapshot());
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), batch.points.size());
    std::map<std::int64_t, store::PricePoint> by_item;
    for (const auto& point : batch.points) by_item.emplace(point.item_id, point);
    CPPUNIT_ASSERT_EQUAL(INT64_C(177185), by_item.at(15).price);  // Ruby
    CPPUNIT_ASSERT_EQUAL(INT64_C(40907), by_item.at(13).price);   // Phase 3
    CPPUNIT_ASSERT_EQUAL(INT64_C(40907), by_item.at(10).price);   // base: the cheapest row
    CPPUNIT_ASSERT_EQUAL(INT64_C(905), by_item.at(10).time);
    CPPUNIT_ASSERT_EQUAL(INT64_C(904), by_item.at(15).time);
    CPPUNIT_ASSERT(by_item.at(10).listings == std::optional<std::int64_t>(16));
    CPPUNIT_ASSERT(by_item.at(15).listings == std::optional<std::int64_t>(1));
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), batch.merged);  // six rows, one base point
    CPPUNIT_ASSERT(batch.rejected.empty());
  }

  void rowsOfOneItemAreMergedNeverDropped() {
    const std::string source = "market";
    // Tolerant spellings name the variant; an unknown one prices the name itself; the
    // base row of the name counts too.
    std::vector<sdk::VariantQuote> rows = {row("ruby", 1800.0, 2), row("RUBY", 1790.0, 1),
                                           row("Emerald", 300.0, 7), row("", 350.0, 4)};
    rows[0].volume = 2;
    rows[1].volume = 3;
    const auto batch =
        ingest::normalise(ingest::NormaliseInput{source, 1000}, {}, rows, *catalog_.snapshot());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), batch.points.size());
    CPPUNIT_ASSERT_EQUAL(INT64_C(15), batch.points[0].item_id);  // first seen: the Ruby
    CPPUNIT_ASSERT_EQUAL(INT64_C(179000), batch.points[0].price);
    CPPUNIT_ASSERT_EQUAL(INT64_C(5), batch.points[0].volume);
    CPPUNIT_ASSERT(batch.points[0].listings == std::optional<std::int64_t>(3));
    CPPUNIT_ASSERT_EQUAL(INT64_C(10), batch.points[1].item_id);
    CPPUNIT_ASSERT_EQUAL(INT64_C(30000), batch.points[1].price);
    CPPUNIT_ASSERT(batch.points[1].listings == std::optional<std::int64_t>(14));
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), batch.merged);
  }

  void backfillLineOfAVariant() {
    const std::string source = "history";
    ingest::NormalisedBatch batch;
    auto line = row("Sapphire", 1650.0, 1);
    line.observed_at = 900;
    ingest::normaliseQuote(ingest::NormaliseInput{source, 1000, sdk::PriceKind::kAsk, false}, line,
                           *catalog_.snapshot(), batch);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.points.size());  // the variant's own series
    CPPUNIT_ASSERT_EQUAL(INT64_C(16), batch.points[0].item_id);
  }

  void junkNamesAreRefusedAndCounted() {
    const std::string source = "market";
    std::vector<sdk::VariantQuote> rows = {row("", 1.0, 1), row("", 1.0, 1), row("", 1.0, 1),
                                           row("", 1.0, 1), row("", 1.0, 1)};
    rows[0].market_hash_name = "#CSGO_Type_Knife";
    rows[1].market_hash_name = std::string(300, 'A');
    rows[2].market_hash_name = "AK-47 | Redline\x01 (Field-Tested)";
    rows[3].market_hash_name = "AK-47 |  | Redline";
    rows[4].market_hash_name = "M4A4 | Howl (Factory New)";  // a real name, just missing
    const auto batch =
        ingest::normalise(ingest::NormaliseInput{source, 1000}, {}, rows, *catalog_.snapshot());
    CPPUNIT_ASSERT(batch.points.empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), batch.rejected.at(std::string(ingest::kRejectedJunkName)));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.rejected.at("not in catalogue"));
    CPPUNIT_ASSERT(batch.unknown_names == std::vector<std::string>{"M4A4 | Howl (Factory New)"});
  }

  void namesParseIntoTheirFields() {
    auto parsed = catalog::parseItemName("★ StatTrak™ Karambit | Gamma Doppler (Minimal Wear)");
    CPPUNIT_ASSERT(parsed);
    CPPUNIT_ASSERT(parsed->star && parsed->stattrak && !parsed->souvenir);
    CPPUNIT_ASSERT_EQUAL(std::string("Karambit"), parsed->weapon_type);
    CPPUNIT_ASSERT_EQUAL(std::string("Gamma Doppler"), parsed->skin_name);
    CPPUNIT_ASSERT_EQUAL(std::string("Minimal Wear"), parsed->wear);
    parsed = catalog::parseItemName("Souvenir AWP | Dragon Lore (Field-Tested)");
    CPPUNIT_ASSERT(parsed && parsed->souvenir && !parsed->stattrak);
    CPPUNIT_ASSERT_EQUAL(std::string("AWP"), parsed->weapon_type);
    parsed = catalog::parseItemName("Sticker | Team Liquid (Holo) | Katowice 2015");
    CPPUNIT_ASSERT(parsed && parsed->wear.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("Team Liquid (Holo) | Katowice 2015"), parsed->skin_name);
    parsed = catalog::parseItemName("Recoil Case");
    CPPUNIT_ASSERT(parsed && parsed->skin_name.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("Recoil Case"), parsed->weapon_type);
    CPPUNIT_ASSERT(catalog::parseItemName("★ Karambit"));
    CPPUNIT_ASSERT(catalog::parseItemName("StatTrak™ M4A4 | 龍王 (Dragon King) (Field-Tested)"));
    for (const char* junk :
         {"", "#CSGO_Type_Knife", "AK-47 | ", "| Redline", "AK-47 || Redline",
          "AK-47 | Redline (Field-Tested", "<b>AK-47</b>", "12345", "AK-47  | Redline",
          "StatTrak™ ", "\xC3\x28 invalid utf8", "AK-47 \xE2\x80\x8B| Redline"}) {
      CPPUNIT_ASSERT_MESSAGE(junk, catalog::junkNameReason(junk).has_value());
    }
    CPPUNIT_ASSERT_EQUAL(std::string_view("name over 256 bytes"),
                         *catalog::junkNameReason(std::string(257, 'a')));
  }

  void paintIndexNamesAVariantOfItsFinishOnly() {
    CPPUNIT_ASSERT(catalog::variantOfPaintIndex(415, kBayonet) ==
                   std::optional<std::string_view>("Ruby"));
    CPPUNIT_ASSERT(
        catalog::variantOfPaintIndex(418, "★ StatTrak™ Karambit | Doppler (Minimal Wear)") ==
        std::optional<std::string_view>("Phase 1"));
    CPPUNIT_ASSERT(catalog::variantOfPaintIndex(569, "★ Karambit | Gamma Doppler (Factory New)") ==
                   std::optional<std::string_view>("Phase 1"));
    CPPUNIT_ASSERT(catalog::variantOfPaintIndex(1119, "Glock-18 | Gamma Doppler (Factory New)") ==
                   std::optional<std::string_view>("Emerald"));
    CPPUNIT_ASSERT(!catalog::variantOfPaintIndex(569, kBayonet));  // a Gamma Doppler kit
    CPPUNIT_ASSERT(!catalog::variantOfPaintIndex(415, "AWP | Graphite (Minimal Wear)"));
    CPPUNIT_ASSERT(!catalog::variantOfPaintIndex(44, kBayonet));
  }

  void sightingsNeedDistinctSourcesWithinTheWindow() {
    catalog::NameSightings sightings(2, 3600);
    const std::vector<std::string> names = {"M4A4 | Howl (Factory New)"};
    CPPUNIT_ASSERT(sightings.record("skinport", names, 1000).empty());
    CPPUNIT_ASSERT(sightings.record("skinport", names, 1100).empty());  // the same source
    CPPUNIT_ASSERT(sightings.record("dmarket", names, 1200) == names);  // a second one
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), sightings.size());             // handed over once
    // Sightings older than the window do not count.
    CPPUNIT_ASSERT(sightings.record("skinport", names, 2000).empty());
    CPPUNIT_ASSERT(sightings.record("dmarket", names, 2000 + 3600).empty());
    CPPUNIT_ASSERT(sightings.record("csfloat", names, 2000 + 3700) == names);
    catalog::NameSightings single(1);
    CPPUNIT_ASSERT(single.record("skinport", names, 1000) == names);
  }

  void sightingsStayBounded() {
    catalog::NameSightings sightings(2, 86400, 1000);
    for (int i = 0; i < 5000; ++i) {
      sightings.record("skinport", {"Junk " + std::to_string(i)}, 1000 + i);
      CPPUNIT_ASSERT(sightings.size() <= 1000);
    }
    // The most recent names are kept: a second source adds them.
    CPPUNIT_ASSERT(sightings.record("dmarket", {"Junk 4999"}, 7000).size() == 1);
    CPPUNIT_ASSERT(sightings.record("dmarket", {"Junk 0"}, 7000).empty());
  }

 private:
  static std::size_t parseArray(const std::string& json) {
    Poco::JSON::Parser parser;
    return parser.parse(json).extract<Poco::JSON::Array::Ptr>()->size();
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(VariantsTest);
