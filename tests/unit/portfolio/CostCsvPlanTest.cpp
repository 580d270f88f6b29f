#include "portfolio/CostCsvPlan.hpp"
#include "portfolio/CostCsvReport.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::portfolio;

namespace {

constexpr std::int64_t kNow = 1'795'132'800;  // 2026-11-20T00:00:00Z
using Number = std::optional<std::int64_t>;

store::ItemRecord item(std::int64_t id, std::string name, std::string variant = "",
                       Number variant_of = std::nullopt) {
  store::ItemRecord record;
  record.id = id;
  record.market_hash_name = std::move(name);
  record.weapon_type = "Rifle";
  record.variant = std::move(variant);
  record.variant_of = variant_of;
  return record;
}

const char* const kRedline = "AK-47 | Redline (Field-Tested)";
const char* const kDoppler = "★ Karambit | Doppler (Factory New)";

}  // namespace

class CostCsvPlanTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CostCsvPlanTest);
  CPPUNIT_TEST(combinesTheRowsOfAnItemInUsdCents);
  CPPUNIT_TEST(refusesEachBadRowWithItsCode);
  CPPUNIT_TEST(refusesEveryRowOfAnItemOverTheUnitsHeld);
  CPPUNIT_TEST(picksVariantsByColumnOrByWhatIsHeld);
  CPPUNIT_TEST(readsTheColumnsByNameWhateverTheirCaseOrOrder);
  CPPUNIT_TEST(refusesAHeaderWithoutARequiredColumn);
  CPPUNIT_TEST(reportsRowsItemsAndCounts);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    catalogue_ = std::make_unique<catalog::CatalogSnapshot>(std::vector<store::ItemRecord>{
        item(1, kRedline), item(2, kDoppler), item(3, kDoppler, "Ruby", 2),
        item(4, kDoppler, "Sapphire", 2), item(5, "Sticker | Crown (Foil)")});
    rates_.offer({"EUR", 1, 2, 1000, "test"});    // 0.5 EUR per USD: 1 EUR = 200 cents
    rates_.offer({"JPY", 150, 1, 1000, "test"});  // 150 JPY per USD
    // Item 1 in two accounts, one cost stored; the Ruby alone of the Doppler.
    holdings_ = {{1, 2, 100, 500}, {1, 1, 100, 500}, {3, 1, 100}};
  }

  void combinesTheRowsOfAnItemInUsdCents() {
    const auto plan = plan_(
        "market_hash_name,quantity,cost_each,currency,acquired_at\n"
        "AK-47 | Redline (Field-Tested),1,10.00,USD,2024-05-01\n"
        "AK-47 | Redline (Field-Tested),1,6.25,eur,2023-01-02T10:00:00Z\n"
        "AK-47 | Redline (Field-Tested),1,1000,JPY,\n");
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, plan.matchedRows());
    CPPUNIT_ASSERT(plan.rows[1].cost_each == Number(625));  // minor units of EUR
    CPPUNIT_ASSERT_EQUAL(std::string("EUR"), plan.rows[1].currency);
    CPPUNIT_ASSERT(plan.rows[1].usd_cents == Number(1250));
    CPPUNIT_ASSERT(plan.rows[2].usd_cents == Number(667));  // 1000 / 150 dollars, half up
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, plan.items.size());
    const auto& combined = plan.items.front();
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, combined.item_id);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, combined.quantity);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{972}, combined.cost_basis);   // (1000+1250+667)/3 = 972.33
    CPPUNIT_ASSERT(combined.acquired_at == Number(1'672'653'600));  // the earliest given
    CPPUNIT_ASSERT(combined.previous_cost_basis == Number(500));
    CPPUNIT_ASSERT((plan.costs() == std::vector<store::ItemCost>{{1, 972, 1'672'653'600}}));

    // Half a cent rounds up; no date keeps the stored one (nullopt).
    const auto half = plan_("market_hash_name,quantity,cost_each\n" + std::string(kRedline) +
                            ",1,0.01\n" + kRedline + ",1,0.02\n");
    CPPUNIT_ASSERT((half.costs() == std::vector<store::ItemCost>{{1, 2, std::nullopt}}));
  }

  void refusesEachBadRowWithItsCode() {
    const auto plan =
        plan_(std::string("market_hash_name,quantity,cost_each,currency,acquired_at\n") +
              "Nothing | Such (Item),1,1.00,,\n" +            // 2
              "Sticker | Crown (Foil),1,1.00,,\n" +           // 3
              kRedline + ",0,1.00,,\n" +                      // 4
              kRedline + ",1,1.00,XYZ,\n" +                   // 5
              kRedline + ",1,1.00,GBP,\n" +                   // 6: no rate
              kRedline + ",1,1.005,,\n" +                     // 7
              kRedline + ",1,-1,,\n" +                        // 8
              kRedline + ",1,1.00,,2011-12-31\n" +            // 9
              kRedline + ",1,1.00,,2026-11-22\n" +            // 10: after tomorrow
              kRedline + ",1,1.00,,soon\n" +                  // 11
              ",1,1.00,,\n" +                                 // 12
              kRedline + ",1,2.00,,2026-11-20T23:00:00Z\n");  // 13
    const std::vector<std::string> codes{"unknown_item",     "not_held",         "invalid_quantity",
                                         "unknown_currency", "unknown_currency", "invalid_cost",
                                         "invalid_cost",     "invalid_date",     "invalid_date",
                                         "invalid_date",     "unknown_item",     ""};
    CPPUNIT_ASSERT_EQUAL(codes.size(), plan.rows.size());
    for (std::size_t i = 0; i < codes.size(); ++i) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(std::to_string(i), codes[i], plan.rows[i].code);
      CPPUNIT_ASSERT_EQUAL(i + 2, plan.rows[i].line);
      CPPUNIT_ASSERT(plan.rows[i].matched() == plan.rows[i].detail.empty());
    }
    CPPUNIT_ASSERT(!plan.rows[0].item_id);
    CPPUNIT_ASSERT(plan.rows[1].item_id == Number(5));  // named, but not held
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, plan.matchedRows());
    CPPUNIT_ASSERT_EQUAL(std::size_t{11}, plan.refusedRows());
    CPPUNIT_ASSERT((plan.costs() == std::vector<store::ItemCost>{{1, 200, kNow + 23 * 3600}}));
  }

  void refusesEveryRowOfAnItemOverTheUnitsHeld() {
    // Three units held over two accounts: 2 + 2 is too many, whichever row is wrong.
    const auto plan = plan_(std::string("market_hash_name,quantity,cost_each\n") + kRedline +
                            ",2,1\n" + kRedline + ",2,1\n" + kDoppler + ",1,100\n");
    CPPUNIT_ASSERT_EQUAL(std::string("quantity_exceeds_holding"), plan.rows[0].code);
    CPPUNIT_ASSERT_EQUAL(std::string("quantity_exceeds_holding"), plan.rows[1].code);
    CPPUNIT_ASSERT_EQUAL(std::string("the rows of this item name 4 units; you hold 3"),
                         plan.rows[1].detail);
    CPPUNIT_ASSERT((plan.costs() == std::vector<store::ItemCost>{{3, 10000, std::nullopt}}));
    // Exactly what is held is fine.
    const auto exact =
        plan_(std::string("market_hash_name,quantity,cost_each\n") + kRedline + ",3,1\n");
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, exact.matchedRows());
  }

  void picksVariantsByColumnOrByWhatIsHeld() {
    // The name alone: the base is not held, the Ruby is the one variant held.
    auto plan = plan_(std::string("market_hash_name,quantity,cost_each\n") + kDoppler + ",1,900\n");
    CPPUNIT_ASSERT(plan.rows[0].item_id == Number(3));
    CPPUNIT_ASSERT(plan.rows[0].matched());
    // The variant column, and the export's item_id column (when it names this name).
    holdings_[2].quantity = 3;
    plan = plan_(std::string("market_hash_name,variant,item_id,quantity,cost_each\n") + kDoppler +
                 ",Sapphire,,1,900\n" + kDoppler + ",,3,1,900\n" + kDoppler + ",,1,1,900\n" +
                 kDoppler + ",Emerald,,1,900\n" + kDoppler + ",,x7,1,900\n");
    CPPUNIT_ASSERT(plan.rows[0].item_id == Number(4));
    CPPUNIT_ASSERT_EQUAL(std::string("not_held"), plan.rows[0].code);
    CPPUNIT_ASSERT(plan.rows[1].item_id == Number(3));
    CPPUNIT_ASSERT(plan.rows[1].matched());
    CPPUNIT_ASSERT(plan.rows[2].item_id == Number(3));  // id 1 is another name: the name wins
    CPPUNIT_ASSERT_EQUAL(std::string("unknown_item"), plan.rows[3].code);
    CPPUNIT_ASSERT(plan.rows[4].item_id == Number(3));
    // Two phases held: the name alone means the base item, which is not held.
    holdings_.push_back({4, 1, 100});
    plan = plan_(std::string("market_hash_name,quantity,cost_each\n") + kDoppler + ",1,900\n");
    CPPUNIT_ASSERT(plan.rows[0].item_id == Number(2));
    CPPUNIT_ASSERT_EQUAL(std::string("not_held"), plan.rows[0].code);
  }

  void readsTheColumnsByNameWhateverTheirCaseOrOrder() {
    // The export's own columns (cost_basis, not cost_each; extra columns ignored), its
    // formula guard, a BOM and CRLF.
    const auto plan = plan_(
        "\xEF\xBB\xBFitem_id,Market_Hash_Name,QUANTITY,currency,current_price,total_value,"
        "cost_basis,cost_total,acquired_at,imported_at\r\n"
        "1,\"AK-47 | Redline (Field-Tested)\",3,USD,1.00,3.00,5.00,15.00,"
        "2026-11-01T00:00:00Z,2026-11-19T00:00:00Z\r\n");
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, plan.matchedRows());
    CPPUNIT_ASSERT((plan.costs() == std::vector<store::ItemCost>{{1, 500, 1'793'491'200}}));
    // cost_each wins over cost_basis when both are there.
    const auto both = plan_(std::string("cost_basis,quantity,market_hash_name,cost_each\n7,1,") +
                            kRedline + ",8\n");
    CPPUNIT_ASSERT(both.rows[0].cost_each == Number(800));
  }

  void refusesAHeaderWithoutARequiredColumn() {
    for (const char* header :
         {"quantity,cost_each", "market_hash_name,cost_each", "market_hash_name,quantity",
          "market_hash_name,quantity,cost_each,QUANTITY"}) {
      try {
        plan_(std::string("\n") + header + "\n");
        CPPUNIT_FAIL(header);
      } catch (const InvalidCsv& e) {
        CPPUNIT_ASSERT_EQUAL(std::size_t{2}, e.line());
      }
    }
  }

  void reportsRowsItemsAndCounts() {
    const auto plan =
        plan_(std::string("market_hash_name,quantity,cost_each,currency,acquired_at\n") + kRedline +
              ",1,6.25,EUR,2026-11-01\nNope,1,1,,\n");
    CPPUNIT_ASSERT_EQUAL(
        std::string(
            "{\"dry_run\":true,\"rows\":["
            "{\"line\":2,\"market_hash_name\":\"AK-47 | Redline (Field-Tested)\",\"item_id\":1,"
            "\"quantity\":1,\"cost_each\":625,\"currency\":\"EUR\",\"acquired_at\":"
            "\"2026-11-01T00:00:00Z\",\"status\":\"matched\",\"code\":null,\"detail\":null},"
            "{\"line\":3,\"market_hash_name\":\"Nope\",\"item_id\":null,\"quantity\":null,"
            "\"cost_each\":null,\"currency\":\"USD\",\"acquired_at\":null,\"status\":\"refused\","
            "\"code\":\"unknown_item\",\"detail\":\"no catalogue item has this "
            "market_hash_name\"}],"
            "\"items\":[{\"item_id\":1,\"market_hash_name\":\"AK-47 | Redline (Field-Tested)\","
            "\"quantity\":1,\"cost_basis\":1250,\"acquired_at\":\"2026-11-01T00:00:00Z\","
            "\"previous_cost_basis\":500}],\"matched_rows\":1,\"refused_rows\":1}"),
        costCsvReportJson(plan, true));
  }

 private:
  CostCsvPlan plan_(const std::string& text) {
    return planCostCsv(readCsv(text), {*catalogue_, rates_, holdings_, kNow});
  }

  std::unique_ptr<catalog::CatalogSnapshot> catalogue_;
  currency::RateBook rates_;
  std::vector<store::HoldingRecord> holdings_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(CostCsvPlanTest);
