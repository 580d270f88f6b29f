// Consensus, spread and the best cross-market gap (docs/api.md §12): asks first, lower
// middle on even counts, stale and flagged prices left out, fees on the sell side.

#include "quality/CrossMarket.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::quality;
using skinpulse::prices::Freshness;
using skinpulse::prices::SourceProfile;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;

prices::SourceLatest at(const std::string& source, std::int64_t price,
                        sdk::PriceKind kind = sdk::PriceKind::kAsk, std::int64_t age = 60,
                        bool outlier = false) {
  store::PricePoint point;
  point.item_id = 1;
  point.source = source;
  point.time = kNow - age;
  point.price = price;
  point.kind = kind;
  point.outlier = outlier;
  return prices::SourceLatest{point, std::nullopt};
}

}  // namespace

class CrossMarketTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CrossMarketTest);
  CPPUNIT_TEST(consensusIsTheLowerMiddleOfTheAsks);
  CPPUNIT_TEST(withoutAsksEveryKindCounts);
  CPPUNIT_TEST(staleAndFlaggedPricesDoNotCount);
  CPPUNIT_TEST(oneOrNoPrices);
  CPPUNIT_TEST(bestSpreadBuysTheCheapestAskAndSellsNetOfFees);
  CPPUNIT_TEST(bestSpreadNeedsEnoughSourcesAndAnAsk);
  CPPUNIT_TEST_SUITE_END();

  static prices::PricePolicy policy(bool exclude_outliers) {
    return prices::PricePolicy({SourceProfile{"a", "x", sdk::PriceKind::kAsk, true, 60, 0},
                                SourceProfile{"b", "x", sdk::PriceKind::kAsk, true, 60, 0}},
                               {}, exclude_outliers, 3.0);
  }
  const prices::PricePolicy excluding_ = policy(true);
  const prices::PricePolicy including_ = policy(false);
  const prices::PricePolicy& rules() const { return excluding_; }

 public:
  void consensusIsTheLowerMiddleOfTheAsks() {
    auto result =
        consensus({at("a", 1000), at("b", 1200), at("c", 1100), at("d", 5000)}, rules(), kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1100}, *result.price);  // 1000 1100 | 1200 5000
    CPPUNIT_ASSERT_DOUBLES_EQUAL(400.0, *result.spread_percent, 1e-9);
    result = consensus({at("a", 1000), at("b", 1200), at("c", 1100)}, rules(), kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1100}, *result.price);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(20.0, *result.spread_percent, 1e-9);
  }
  void withoutAsksEveryKindCounts() {
    // One ask: the bid and the sale are left out.
    auto result = consensus(
        {at("a", 900, sdk::PriceKind::kBid), at("b", 1000), at("c", 1500, sdk::PriceKind::kSale)},
        rules(), kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1000}, *result.price);
    CPPUNIT_ASSERT(!result.spread_percent);
    result = consensus({at("a", 900, sdk::PriceKind::kBid), at("c", 1500, sdk::PriceKind::kSale)},
                       rules(), kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{900}, *result.price);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(66.666666, *result.spread_percent, 1e-4);
  }
  void staleAndFlaggedPricesDoNotCount() {
    // "a" polls every 60 s: 181 s old is stale; "c" is unpolled: 24 h.
    const auto result = consensus(
        {at("a", 100, sdk::PriceKind::kAsk, 181), at("b", 1000),
         at("c", 1100, sdk::PriceKind::kAsk, 86000), at("d", 9000, sdk::PriceKind::kAsk, 60, true)},
        rules(), kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1000}, *result.price);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, result.sources);
    const auto kept =
        consensus({at("b", 1000), at("d", 9000, sdk::PriceKind::kAsk, 60, true)}, including_, kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, kept.sources);
  }
  void oneOrNoPrices() {
    auto result = consensus({at("a", 1000)}, rules(), kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1000}, *result.price);
    CPPUNIT_ASSERT(!result.spread_percent);
    result = consensus({at("a", 1000, sdk::PriceKind::kAsk, 400)}, rules(), kNow);
    CPPUNIT_ASSERT(!result.price);
    CPPUNIT_ASSERT(!consensus({}, rules(), kNow).price);
  }
  void bestSpreadBuysTheCheapestAskAndSellsNetOfFees() {
    const FeeTable fees{{"b", 10.0}, {"c", 0.0}};
    // Gross, b (2000) is dearest; net of 10 % it is 1800, below c's 1900.
    const auto gap = bestSpread({at("a", 1000), at("b", 2000), at("c", 1900, sdk::PriceKind::kBid)},
                                rules(), fees, 2, kNow);
    CPPUNIT_ASSERT(gap);
    CPPUNIT_ASSERT_EQUAL(std::string("a"), gap->buy_source);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1000}, gap->buy_price);
    CPPUNIT_ASSERT_EQUAL(std::string("c"), gap->sell_source);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1900}, gap->sell_price);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(90.0, gap->spread_percent, 1e-9);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1800}, netOfFee(2000, 10.0));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1234}, netOfFee(1234, 0.0));
  }
  void bestSpreadNeedsEnoughSourcesAndAnAsk() {
    const FeeTable fees;
    CPPUNIT_ASSERT(!bestSpread({at("a", 1000)}, rules(), fees, 2, kNow));
    CPPUNIT_ASSERT(!bestSpread({at("a", 1000), at("b", 1200)}, rules(), fees, 3, kNow));
    CPPUNIT_ASSERT(
        !bestSpread({at("a", 1000, sdk::PriceKind::kBid), at("b", 1200, sdk::PriceKind::kSale)},
                    rules(), fees, 2, kNow));
    // A stale ask is not bought.
    const auto gap =
        bestSpread({at("a", 500, sdk::PriceKind::kAsk, 1000), at("b", 1000), at("c", 1300)},
                   rules(), fees, 2, kNow);
    CPPUNIT_ASSERT_EQUAL(std::string("b"), gap->buy_source);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(30.0, gap->spread_percent, 1e-9);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CrossMarketTest);
