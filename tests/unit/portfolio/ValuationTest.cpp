#include "portfolio/Valuation.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::portfolio;

namespace {

constexpr std::int64_t kNow = 1800000000;

store::ItemRecord item(std::int64_t id, const std::string& name) {
  store::ItemRecord record;
  record.id = id;
  record.market_hash_name = name;
  return record;
}

}  // namespace

class ValuationTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ValuationTest);
  CPPUNIT_TEST(valuesAtTheReferenceSourcesCurrentPrice);
  CPPUNIT_TEST(anItemWithoutPriceIsWorthZero);
  CPPUNIT_TEST(ordersByValueThenItemId);
  CPPUNIT_TEST(saturatesInsteadOfWrapping);
  CPPUNIT_TEST(anEmptyPortfolioIsWorthZero);
  CPPUNIT_TEST(aSpikeNeverMovesTheValue);
  CPPUNIT_TEST(profitAndLossPerHoldingAndInTotal);
  CPPUNIT_TEST(withoutAnyCostBasisTheTotalPlIsNull);
  CPPUNIT_TEST(aLossSaturatesDownwards);
  CPPUNIT_TEST(change24hIsValueWeightedOverHoldingsThatHaveOne);
  CPPUNIT_TEST(withoutAnyChange24hTheTotalIsNull);
  CPPUNIT_TEST(appliedItemsAreValuedAndCountAtThePercent);
  CPPUNIT_TEST(appliedShareRoundsHalfAwayFromZero);
  CPPUNIT_TEST(departuresRealiseProfitOnlyWithBothPrices);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    catalog_ = std::make_unique<catalog::CatalogSnapshot>(std::vector<store::ItemRecord>{
        item(1, "Recoil Case"), item(2, "AK-47 | Redline (Field-Tested)"), item(3, "★ Karambit"),
        item(4, "Sticker | Howl")});
  }

  void valuesAtTheReferenceSourcesCurrentPrice() {
    prices::LatestPrices latest;
    // "market" has two points in 24 h and comes first in the order: it decides.
    latest.apply({{2, "market", kNow - 600, 1200, 1},
                  {2, "market", kNow - 60, 1250, 1},
                  {2, "other", kNow - 10, 9999, 1}});
    const auto valuation =
        valueHoldings({{2, 3, 100}}, *catalog_, latest, {"market", "other"}, kNow, excluding_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, valuation.holdings.size());
    const auto& holding = valuation.holdings[0];
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"), holding.market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1250}, holding.current_price);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3750}, holding.total_value);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{100}, holding.imported_at);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3750}, valuation.total_value);
  }

  void aSpikeNeverMovesTheValue() {
    prices::LatestPrices latest;
    store::PricePoint spike{2, "market", kNow - 60, 99900, 1};
    spike.outlier = true;
    store::PricePoint lone{3, "market", kNow - 60, 50000, 1};
    lone.outlier = true;  // no trusted price at all: the source is left out
    latest.apply(
        {{2, "market", kNow - 600, 1200, 1}, spike, {3, "other", kNow - 900, 40000, 1}, lone});
    auto valuation = valueHoldings({{2, 2, 100}, {3, 1, 100}}, *catalog_, latest,
                                   {"market", "other"}, kNow, excluding_);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1200}, valuation.holdings[1].current_price);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{40000}, valuation.holdings[0].current_price);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{42400}, valuation.total_value);
    // [quality] exclude_outliers = false: the flagged prices count.
    valuation = valueHoldings({{2, 2, 100}}, *catalog_, latest, {"market"}, kNow, including_);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{99900}, valuation.holdings[0].current_price);
  }

  void anItemWithoutPriceIsWorthZero() {
    prices::LatestPrices latest;
    latest.apply({{1, "market", kNow - 60, 250, 1}});
    const auto valuation =
        valueHoldings({{1, 4, 100}, {3, 1, 100}}, *catalog_, latest, {"market"}, kNow, excluding_);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1000}, valuation.total_value);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, valuation.holdings[1].item_id);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, valuation.holdings[1].current_price);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, valuation.holdings[1].total_value);
  }

  void ordersByValueThenItemId() {
    prices::LatestPrices latest;
    latest.apply({{1, "m", kNow, 100, 1},
                  {2, "m", kNow, 50, 1},
                  {3, "m", kNow, 200, 1},
                  {4, "m", kNow, 100, 1}});
    // Values: 1 → 200, 2 → 200, 3 → 200, 4 → 300; ties by item_id ascending.
    const auto valuation = valueHoldings({{1, 2, 0}, {2, 4, 0}, {3, 1, 0}, {4, 3, 0}}, *catalog_,
                                         latest, {"m"}, kNow, excluding_);
    std::vector<std::int64_t> ids;
    for (const auto& h : valuation.holdings) ids.push_back(h.item_id);
    CPPUNIT_ASSERT((ids == std::vector<std::int64_t>{4, 1, 2, 3}));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{900}, valuation.total_value);
  }

  void saturatesInsteadOfWrapping() {
    prices::LatestPrices latest;
    latest.apply({{1, "m", kNow, INT64_C(1) << 40, 1}, {2, "m", kNow, 1, 1}});
    const auto valuation = valueHoldings({{1, INT64_C(1) << 30, 0}, {2, 5, 0}}, *catalog_, latest,
                                         {"m"}, kNow, excluding_);
    CPPUNIT_ASSERT_EQUAL(INT64_MAX, valuation.holdings[0].total_value);
    CPPUNIT_ASSERT_EQUAL(INT64_MAX, valuation.total_value);
  }

  void anEmptyPortfolioIsWorthZero() {
    prices::LatestPrices latest;
    const auto valuation = valueHoldings({}, *catalog_, latest, {}, kNow, excluding_);
    CPPUNIT_ASSERT(valuation.holdings.empty());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, valuation.total_value);
  }

  void profitAndLossPerHoldingAndInTotal() {
    prices::LatestPrices latest;
    latest.apply({{1, "m", kNow, 250, 1}, {2, "m", kNow, 1000, 1}, {3, "m", kNow, 40, 1}});
    // 1: bought at 200, worth 250 (+50 × 4); 2: bought at 1200, worth 1000 (−200 × 3);
    // 3: no cost basis, left out of cost_total and unrealised_pl.
    const auto valuation =
        valueHoldings({{1, 4, 0, 200, 1'700'000'000}, {2, 3, 0, 1200, std::nullopt}, {3, 10, 0}},
                      *catalog_, latest, {"m"}, kNow, excluding_);
    const auto& ak = valuation.holdings[0];
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, ak.item_id);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{-600}, *ak.unrealised_pl);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3600}, *ak.cost_total);
    CPPUNIT_ASSERT(!ak.acquired_at);
    const auto& the_case = valuation.holdings[1];
    CPPUNIT_ASSERT_EQUAL(std::int64_t{200}, *the_case.unrealised_pl);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1'700'000'000}, *the_case.acquired_at);
    const auto& knife = valuation.holdings[2];
    CPPUNIT_ASSERT(!knife.cost_basis && !knife.unrealised_pl && !knife.cost_total);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3000 + 1000 + 400}, valuation.total_value);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{800 + 3600}, valuation.cost_total);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{200 - 600}, *valuation.unrealised_pl);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, valuation.cost_basis_count);
  }

  void withoutAnyCostBasisTheTotalPlIsNull() {
    prices::LatestPrices latest;
    latest.apply({{1, "m", kNow, 250, 1}});
    // A cost basis of 0 (a drop, a gift) is a cost basis: all value is profit.
    auto valuation = valueHoldings({{1, 2, 0}}, *catalog_, latest, {"m"}, kNow, excluding_);
    CPPUNIT_ASSERT(!valuation.unrealised_pl);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, valuation.cost_total);
    valuation =
        valueHoldings({{1, 2, 0, 0, std::nullopt}}, *catalog_, latest, {"m"}, kNow, excluding_);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{500}, *valuation.unrealised_pl);
    // An item without a price is worth 0: its whole cost is the loss.
    valuation =
        valueHoldings({{3, 2, 0, 700, std::nullopt}}, *catalog_, latest, {"m"}, kNow, excluding_);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{-1400}, *valuation.holdings[0].unrealised_pl);
  }

  void aLossSaturatesDownwards() {
    prices::LatestPrices latest;
    const auto valuation = valueHoldings({{1, INT64_C(1) << 40, 0, INT64_C(1) << 40, std::nullopt}},
                                         *catalog_, latest, {"m"}, kNow, excluding_);
    CPPUNIT_ASSERT_EQUAL(INT64_MIN, *valuation.holdings[0].unrealised_pl);
    CPPUNIT_ASSERT_EQUAL(INT64_MIN, *valuation.unrealised_pl);
    CPPUNIT_ASSERT_EQUAL(INT64_MAX, valuation.cost_total);
  }

  void change24hIsValueWeightedOverHoldingsThatHaveOne() {
    prices::LatestPrices latest;
    latest.apply({{1, "m", kNow, 110, 1}, {2, "m", kNow, 50, 1}, {3, "m", kNow, 999, 1}});
    // 1: +10 % (100 → 110), 2: −50 % (100 → 50), 3: no price 24 h ago (no change): left out.
    const ChangeLookup change = [](std::int64_t id) -> std::optional<double> {
      if (id == 1) return 10.0;
      if (id == 2) return -50.0;
      return std::nullopt;
    };
    const auto valuation = valueHoldings({{1, 1, 0}, {2, 3, 0}, {3, 1, 0}}, *catalog_, latest,
                                         {"m"}, kNow, excluding_, change);
    CPPUNIT_ASSERT(!valuation.holdings[0].change_24h_percent);  // item 3 (999) sorts first
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-50.0, *valuation.holdings[1].change_24h_percent, 1e-9);
    // Then: 100 + 300 = 400; now: 110 + 150 = 260 → −35 %.
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-35.0, *valuation.change_24h_percent, 1e-9);
  }

  void withoutAnyChange24hTheTotalIsNull() {
    prices::LatestPrices latest;
    latest.apply({{1, "m", kNow, 0, 1}});
    auto valuation = valueHoldings({{1, 1, 0}}, *catalog_, latest, {"m"}, kNow, excluding_);
    CPPUNIT_ASSERT(!valuation.change_24h_percent);  // no lookup at all
    // −100 %: the value 24 h ago cannot be told from a price of 0; left out.
    const ChangeLookup gone = [](std::int64_t) { return std::optional<double>(-100.0); };
    valuation = valueHoldings({{1, 1, 0}}, *catalog_, latest, {"m"}, kNow, excluding_, gone);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-100.0, *valuation.holdings[0].change_24h_percent, 1e-9);
    CPPUNIT_ASSERT(!valuation.change_24h_percent);
  }

 private:
  std::unique_ptr<catalog::CatalogSnapshot> catalog_;
  /// [quality] exclude_outliers = true (the default) and false; no sources configured.
  // docs/api.md §23.1: an AK with two Howl stickers (item 4, 333 each) and one sticker the
  // catalogue lacks; 0 % keeps the totals as before, 50 % counts half the applied value.
  void appliedItemsAreValuedAndCountAtThePercent() {
    prices::LatestPrices latest;
    latest.apply({{2, "m", kNow, 1000, 1}, {4, "m", kNow, 333, 1}});
    store::HoldingRecord crafted{2, 3, 0, 2000, std::nullopt};
    crafted.holding_id = 11;
    crafted.account = "76561197960287930";
    crafted.applied = {{"sticker", 0, "Sticker | Howl", 4},
                       {"sticker", 1, "Sticker | Howl", 4},
                       {"sticker", 2, "Sticker | Nobody", std::nullopt}};
    store::HoldingRecord plain{2, 1, 0};
    plain.holding_id = 12;

    auto valuation = valueHoldings({crafted, plain}, *catalog_, latest, {"m"}, kNow, excluding_);
    CPPUNIT_ASSERT_EQUAL(0, valuation.applied_value_percent);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3 * 666}, valuation.applied_value);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4000}, valuation.total_value);  // as before
    const auto& fancy = valuation.holdings[0];
    CPPUNIT_ASSERT_EQUAL(std::int64_t{11}, fancy.holding_id);
    CPPUNIT_ASSERT_EQUAL(std::string("76561197960287930"), fancy.account);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, fancy.applied.size());
    CPPUNIT_ASSERT(fancy.applied[0].current_price == std::int64_t{333});
    CPPUNIT_ASSERT(!fancy.applied[2].current_price && !fancy.applied[2].item_id);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1998}, fancy.applied_value);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3000}, fancy.total_value);
    CPPUNIT_ASSERT(fancy.unrealised_pl == std::int64_t{-3000});

    valuation = valueHoldings({crafted, plain}, *catalog_, latest, {"m"}, kNow, excluding_, {}, 50);
    CPPUNIT_ASSERT_EQUAL(50, valuation.applied_value_percent);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3000 + 999}, valuation.holdings[0].total_value);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4999}, valuation.total_value);
    CPPUNIT_ASSERT(valuation.holdings[0].unrealised_pl == std::int64_t{-3000 + 999});
    valuation = valueHoldings({crafted}, *catalog_, latest, {"m"}, kNow, excluding_, {}, 250);
    CPPUNIT_ASSERT_EQUAL(100, valuation.applied_value_percent);  // clamped
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3000 + 1998}, valuation.total_value);
  }

  void appliedShareRoundsHalfAwayFromZero() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, appliedShare(999, 0));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, appliedShare(9, 50));    // 4.5 → 5
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, appliedShare(13, 33));   // 4.29 → 4
    CPPUNIT_ASSERT_EQUAL(std::int64_t{-5}, appliedShare(-9, 50));  // −4.5 → −5
    CPPUNIT_ASSERT_EQUAL(std::int64_t{999}, appliedShare(999, 100));
    CPPUNIT_ASSERT_EQUAL(INT64_MAX / 100 * 99 + (INT64_MAX % 100 * 99 + 50) / 100,
                         appliedShare(INT64_MAX, 99));  // no overflow on the way
  }

  void departuresRealiseProfitOnlyWithBothPrices() {
    prices::LatestPrices latest;
    latest.apply({{4, "m", kNow, 333, 1}});
    store::DepartureRecord sold;
    sold.departure_id = 7;
    sold.item_id = 2;
    sold.quantity = 2;
    sold.last_price = 1234;
    sold.cost_basis = 1000;
    sold.sale_price = 1300;
    sold.applied = {{"sticker", 0, "Sticker | Howl", 4}};
    store::DepartureRecord unsold = sold;
    unsold.sale_price.reset();
    store::DepartureRecord no_cost = sold;
    no_cost.cost_basis.reset();
    const auto valued = valueDeparture(sold, *catalog_, latest, {"m"}, kNow, excluding_);
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"), valued.market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2468}, valued.last_value);
    CPPUNIT_ASSERT(valued.realised_pl == std::int64_t{600});
    CPPUNIT_ASSERT(valued.applied.at(0).current_price == std::int64_t{333});
    const auto open = valueDeparture(unsold, *catalog_, latest, {"m"}, kNow, excluding_);
    const auto costless = valueDeparture(no_cost, *catalog_, latest, {"m"}, kNow, excluding_);
    CPPUNIT_ASSERT(!open.realised_pl && !costless.realised_pl);
    CPPUNIT_ASSERT(!realisedTotal({open, costless}));
    CPPUNIT_ASSERT(realisedTotal({open, valued, costless, valued}) == std::int64_t{1200});
  }

  const prices::PricePolicy excluding_{{}, {}, true, 3.0};
  const prices::PricePolicy including_{{}, {}, false, 3.0};
};

CPPUNIT_TEST_SUITE_REGISTRATION(ValuationTest);
