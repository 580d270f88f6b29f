#include "mocks/Fixture.hpp"
#include "portfolio/InventoryError.hpp"
#include "portfolio/InventoryPage.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::portfolio;
using skinpulse::test::fixture;

namespace {

bool refused(const std::string& body) {
  try {
    parseInventoryPage(body);
    return false;
  } catch (const InventoryError& e) {
    return e.kind() == InventoryError::Kind::kUpstream;
  }
}

const std::string kDescription =
    R"({"classid":"10","instanceid":"0","market_hash_name":"Recoil Case"})";

std::string page(const std::string& assets,
                 const std::string& descriptions = "[" + kDescription + "]",
                 const std::string& extra = "") {
  return R"({"success":1,"assets":)" + assets + R"(,"descriptions":)" + descriptions + extra + "}";
}

}  // namespace

class InventoryPageTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(InventoryPageTest);
  CPPUNIT_TEST(joinsTheSyntheticFixturePages);
  CPPUNIT_TEST(readsStackedAmounts);
  CPPUNIT_TEST(carriesEachDescriptionsIconToItsAssets);
  CPPUNIT_TEST(leavesAssetsWithoutDescriptionUnnamed);
  CPPUNIT_TEST(anEmptyInventoryIsAnEmptyPage);
  CPPUNIT_TEST(acceptsNumericIdsAndBooleanFlags);
  CPPUNIT_TEST(refusesNullAndFailureBodies);
  CPPUNIT_TEST(refusesHostileJson);
  CPPUNIT_TEST(refusesBadAmounts);
  CPPUNIT_TEST(refusesMoreItemsWithoutLastAssetId);
  CPPUNIT_TEST(readsThePaintIndexFromAssetProperties);
  CPPUNIT_TEST_SUITE_END();

 public:
  void joinsTheSyntheticFixturePages() {
    const auto first = parseInventoryPage(fixture("steam_inventory_730_page1_synthetic.json"));
    CPPUNIT_ASSERT(first.more_items);
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, first.assets.size());
    CPPUNIT_ASSERT_EQUAL(std::string("41300000001"), first.assets[0].asset_id);
    for (const auto& asset : first.assets) {
      CPPUNIT_ASSERT_MESSAGE(asset.asset_id, asset.market_hash_name.has_value());
      CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, asset.amount);
    }
    // The two identical cases share one (classid, instanceid) and so one name.
    CPPUNIT_ASSERT(first.assets[1].market_hash_name == first.assets[2].market_hash_name);
    CPPUNIT_ASSERT(!first.last_asset_id.empty());

    const auto second = parseInventoryPage(fixture("steam_inventory_730_page2_synthetic.json"));
    CPPUNIT_ASSERT(!second.more_items);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, second.assets.size());
    CPPUNIT_ASSERT_EQUAL(std::string("★ Karambit | Doppler (Factory New)"),
                         *second.assets[0].market_hash_name);
  }

  void carriesEachDescriptionsIconToItsAssets() {
    const auto fixturePage =
        parseInventoryPage(fixture("steam_inventory_730_page1_synthetic.json"));
    CPPUNIT_ASSERT(fixturePage.assets[0].icon_url.rfind(
                       "-9a81dlWLwJ2UUGcVs_nsVtzdOEdtWwKGZZLQHTxDZ7", 0) == 0);
    // An icon that is not a string costs the picture, never the asset or its name.
    const auto parsed = parseInventoryPage(
        page(R"([{"assetid":"1","classid":"10"},{"assetid":"2","classid":"11"}])",
             R"([{"classid":"10","market_hash_name":"Recoil Case","icon_url":"abc_DEF-1"},
                 {"classid":"11","market_hash_name":"Fracture Case","icon_url":{"x":1}}])"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, parsed.assets.size());
    CPPUNIT_ASSERT_EQUAL(std::string("abc_DEF-1"), parsed.assets[0].icon_url);
    CPPUNIT_ASSERT_EQUAL(std::string("Fracture Case"), *parsed.assets[1].market_hash_name);
    CPPUNIT_ASSERT(parsed.assets[1].icon_url.empty());
  }

  void readsStackedAmounts() {
    const auto parsed =
        parseInventoryPage(page(R"([{"assetid":"1","classid":"10","instanceid":"0","amount":"25"},
                 {"assetid":"2","classid":"10","amount":"1"},
                 {"assetid":"3","classid":"10"}])"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, parsed.assets.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{25}, parsed.assets[0].amount);
    // instanceid absent joins as "0"; amount absent is one unit.
    CPPUNIT_ASSERT_EQUAL(std::string("Recoil Case"), *parsed.assets[1].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, parsed.assets[2].amount);
  }

  void leavesAssetsWithoutDescriptionUnnamed() {
    const auto parsed = parseInventoryPage(page(
        R"([{"assetid":"1","classid":"99","instanceid":"0","amount":"1"},
            {"assetid":"2","classid":"11","instanceid":"0","amount":"2"},
            {"assetid":"3","classid":"10","instanceid":"7","amount":"1"}])",
        R"([{"classid":"11","instanceid":"0","name":"no market name"}, )" + kDescription + "]"));
    CPPUNIT_ASSERT(!parsed.assets[0].market_hash_name);  // no description at all
    CPPUNIT_ASSERT(!parsed.assets[1].market_hash_name);  // a description without the name
    CPPUNIT_ASSERT(!parsed.assets[2].market_hash_name);  // same class, other instance
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, parsed.assets[1].amount);
  }

  void anEmptyInventoryIsAnEmptyPage() {
    const auto empty = parseInventoryPage(fixture("steam_inventory_730_empty.json"));
    CPPUNIT_ASSERT(empty.assets.empty());
    CPPUNIT_ASSERT(!empty.more_items);
    // "CS inventory has no visible items": success without assets but a count.
    const auto hidden = parseInventoryPage(R"({"success":1,"total_inventory_count":12})");
    CPPUNIT_ASSERT(hidden.assets.empty());
    CPPUNIT_ASSERT(
        parseInventoryPage(R"({"success":1,"assets":null,"more_items":0})").assets.empty());
  }

  void acceptsNumericIdsAndBooleanFlags() {
    const auto parsed = parseInventoryPage(
        R"({"success":true,"more_items":true,"last_assetid":12,
            "assets":[{"assetid":12,"classid":10,"instanceid":0,"amount":3}],
            "descriptions":[{"classid":10,"instanceid":0,"market_hash_name":"Recoil Case"}]})");
    CPPUNIT_ASSERT(parsed.more_items);
    CPPUNIT_ASSERT_EQUAL(std::string("12"), parsed.last_asset_id);
    CPPUNIT_ASSERT_EQUAL(std::string("12"), parsed.assets[0].asset_id);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, parsed.assets[0].amount);
    CPPUNIT_ASSERT_EQUAL(std::string("Recoil Case"), *parsed.assets[0].market_hash_name);
  }

  void refusesNullAndFailureBodies() {
    CPPUNIT_ASSERT(refused(fixture("steam_inventory_403_private.body.json")));
    CPPUNIT_ASSERT(refused("null"));
    CPPUNIT_ASSERT(refused(""));
    CPPUNIT_ASSERT(
        refused(R"j({"error":"EYldRefreshAppIfNecessary failed with EResult 55 (20)"})j"));
    CPPUNIT_ASSERT(refused(R"({"success":0})"));
    CPPUNIT_ASSERT(refused(R"({"success":false,"Error":"This profile is private."})"));
    CPPUNIT_ASSERT(refused(R"({"success":"1"})"));
    // Beyond int64: Poco's convert() would throw a RangeException out of the parser.
    CPPUNIT_ASSERT(refused(R"({"success":18446744073709551615})"));
    CPPUNIT_ASSERT(refused(R"({"success":1,"assets":[],"more_items":18446744073709551615})"));
  }

  void refusesHostileJson() {
    CPPUNIT_ASSERT(refused("[]"));
    CPPUNIT_ASSERT(refused("{\"success\":1"));  // truncated
    // Valid JSON nested far deeper than the format: refused by depth, not by recursion.
    CPPUNIT_ASSERT(refused(R"({"success":1,"pad":)" + std::string(100000, '[') +
                           std::string(100000, ']') + "}"));
    CPPUNIT_ASSERT(!refused(R"({"success":1,"pad":[[[[]]]]})"));
    CPPUNIT_ASSERT(refused(R"({"success":1,"assets":{"0":{}}})"));
    CPPUNIT_ASSERT(refused(R"({"success":1,"assets":[1,2]})"));
    CPPUNIT_ASSERT(refused(R"({"success":1,"assets":[null]})"));
    CPPUNIT_ASSERT(refused(R"({"success":1,"descriptions":"x"})"));
    CPPUNIT_ASSERT(refused(page(R"([{"classid":"10"}])")));  // no assetid
    CPPUNIT_ASSERT(refused(page(R"([{"assetid":"1"}])")));   // no classid
    CPPUNIT_ASSERT(refused(page(R"([{"assetid":"-1","classid":"10"}])")));
    CPPUNIT_ASSERT(refused(page(R"([{"assetid":-1,"classid":"10"}])")));
    CPPUNIT_ASSERT(refused(page(R"([{"assetid":"1e5","classid":"10"}])")));
    CPPUNIT_ASSERT(refused(page(R"([{"assetid":1.5,"classid":"10"}])")));
    CPPUNIT_ASSERT(refused(page(R"([{"assetid":"123456789012345678901","classid":"10"}])")));
    CPPUNIT_ASSERT(refused(page(R"([{"assetid":{"a":1},"classid":"10"}])")));
    CPPUNIT_ASSERT(refused(page(R"([{"assetid":true,"classid":"10"}])")));
    CPPUNIT_ASSERT(refused(page("[]", R"([{"classid":"10","market_hash_name":42}])")));
    CPPUNIT_ASSERT(refused(page("[]", R"([{"market_hash_name":"x"}])")));
    CPPUNIT_ASSERT(refused(page("[]", "[7]")));
    CPPUNIT_ASSERT(refused(page("[]", "[]", R"(,"more_items":2,"last_assetid":"1")")));
  }

  void refusesBadAmounts() {
    for (const char* amount : {R"("0")", R"("-3")", R"("")", R"("2.5")", R"("1000000001")",
                               R"("99999999999999999999")", "0", "-1", "null", "[]"}) {
      CPPUNIT_ASSERT_MESSAGE(
          amount, refused(page(std::string(R"([{"assetid":"1","classid":"10",)") + R"("amount":)" +
                               amount + "}]")));
    }
  }

  void refusesMoreItemsWithoutLastAssetId() {
    CPPUNIT_ASSERT(refused(page("[]", "[]", R"(,"more_items":1)")));
    CPPUNIT_ASSERT(refused(page("[]", "[]", R"(,"more_items":1,"last_assetid":"x")")));
  }

  // docs/upstreams.md §d: asset_properties per asset id; propertyid 7 ("Finish Catalog") is
  // the paint index (a public client's test of the live shape: {"propertyid":7,
  // "int_value":"418","name":"Finish Catalog"}). Anything strange there is skipped, never a
  // refused page.
  void readsThePaintIndexFromAssetProperties() {
    const std::string properties =
        R"(,"asset_properties":[)"
        R"({"appid":730,"contextid":"2","assetid":"1","asset_properties":[)"
        R"({"propertyid":1,"int_value":"661","name":"Pattern Template"},)"
        R"({"propertyid":2,"float_value":"0.0103","name":"Wear Rating"},)"
        R"({"propertyid":7,"int_value":"415","name":"Finish Catalog"}]},)"
        R"({"appid":730,"contextid":"2","assetid":"2","asset_properties":[)"
        R"({"propertyid":7,"int_value":"not a number","name":"Finish Catalog"}]},)"
        R"({"appid":730,"contextid":"2","assetid":"3","asset_properties":"odd"},)"
        R"("odd entry"])";
    const auto parsed = parseInventoryPage(page(R"([{"assetid":"1","classid":"10","amount":"1"},)"
                                                R"({"assetid":"2","classid":"10","amount":"1"},)"
                                                R"({"assetid":"3","classid":"10","amount":"1"},)"
                                                R"({"assetid":"4","classid":"10","amount":"1"}])",
                                                "[" + kDescription + "]", properties));
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, parsed.assets.size());
    CPPUNIT_ASSERT(parsed.assets[0].paint_index == std::optional<std::int64_t>(415));
    CPPUNIT_ASSERT(!parsed.assets[1].paint_index);
    CPPUNIT_ASSERT(!parsed.assets[2].paint_index);
    CPPUNIT_ASSERT(!parsed.assets[3].paint_index);
    // The synthetic fixture pages carry properties 1, 2 and 6 only: no paint index.
    for (const auto& asset :
         parseInventoryPage(fixture("steam_inventory_730_page1_synthetic.json")).assets) {
      CPPUNIT_ASSERT(!asset.paint_index);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(InventoryPageTest);
