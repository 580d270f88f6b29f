#include "prices/LatestPrices.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

constexpr std::int64_t kNow = 1800000000;

store::PricePoint point(const std::string& source, std::int64_t time, std::int64_t price) {
  return store::PricePoint{1, source, time, price, 1};
}

}  // namespace

class LatestPricesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LatestPricesTest);
  CPPUNIT_TEST(foldKeepsNewestAndPrevious);
  CPPUNIT_TEST(readersKeepTheirSnapshotWhileACycleIsApplied);
  CPPUNIT_TEST(untouchedItemsAreSharedBetweenSnapshots);
  CPPUNIT_TEST(referenceOrderDefaultsToEnabledThenAlphabetical);
  CPPUNIT_TEST(currentPricePrefersReferenceWithTwoPointsInADay);
  CPPUNIT_TEST(currentPriceFallsBackToNewestOfAnySource);
  CPPUNIT_TEST_SUITE_END();

 public:
  void foldKeepsNewestAndPrevious() {
    prices::LatestPrices latest;
    latest.apply({point("a", 100, 5), point("a", 300, 7), point("a", 200, 6), point("a", 50, 1),
                  point("a", 300, 99)});
    const auto of = latest.of(1);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), of.size());
    CPPUNIT_ASSERT_EQUAL(INT64_C(300), of[0].newest.time);
    CPPUNIT_ASSERT_EQUAL(INT64_C(7), of[0].newest.price);  // the first observation wins
    CPPUNIT_ASSERT_EQUAL(INT64_C(200), *of[0].previous_time);
    CPPUNIT_ASSERT(latest.of(2).empty());
    latest.apply({store::PricePoint{2, "zeta", 1, 1, 1}, store::PricePoint{3, "alpha", 1, 1, 1}});
    CPPUNIT_ASSERT((std::vector<std::string>{"a", "alpha", "zeta"}) == latest.sourceNames());
    latest.reset({store::PriceStore::Latest{store::PricePoint{9, "only", 1, 1, 1}, std::nullopt}});
    CPPUNIT_ASSERT((std::vector<std::string>{"only"}) == latest.sourceNames());
    CPPUNIT_ASSERT(latest.of(1).empty());
  }

  void readersKeepTheirSnapshotWhileACycleIsApplied() {
    prices::LatestPrices latest;
    latest.apply({point("a", 100, 5)});
    const auto before = latest.snapshot();
    latest.apply({point("a", 200, 6), store::PricePoint{2, "b", 200, 8, 1}});
    // A request that took the snapshot before the cycle still sees one consistent state.
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), before->by_item.size());
    CPPUNIT_ASSERT_EQUAL(INT64_C(5), before->by_item.at(1)->front().newest.price);
    CPPUNIT_ASSERT((std::vector<std::string>{"a"}) == before->source_names);
    CPPUNIT_ASSERT_EQUAL(INT64_C(6), latest.of(1).front().newest.price);
    CPPUNIT_ASSERT((std::vector<std::string>{"a", "b"}) == latest.sourceNames());
  }

  void untouchedItemsAreSharedBetweenSnapshots() {
    prices::LatestPrices latest;
    latest.apply({point("a", 100, 5), store::PricePoint{2, "a", 100, 8, 1}});
    const auto before = latest.snapshot();
    latest.apply({store::PricePoint{2, "a", 200, 9, 1}});
    const auto after = latest.snapshot();
    CPPUNIT_ASSERT(before->by_item.at(1) == after->by_item.at(1));
    CPPUNIT_ASSERT(before->by_item.at(2) != after->by_item.at(2));
  }

  void referenceOrderDefaultsToEnabledThenAlphabetical() {
    const std::vector<std::string> order =
        prices::referenceOrder({}, {"steam", "skinport"}, {"zeta", "alpha", "skinport"});
    CPPUNIT_ASSERT((std::vector<std::string>{"steam", "skinport", "alpha", "zeta"}) == order);
    CPPUNIT_ASSERT((std::vector<std::string>{"x"}) ==
                   prices::referenceOrder({"x"}, {"steam"}, {"a"}));
  }

  void currentPricePrefersReferenceWithTwoPointsInADay() {
    prices::LatestPrices latest;
    latest.apply({point("steam", kNow - 100, 500),  // one point
                  point("skinport", kNow - 7200, 480), point("skinport", kNow - 60, 490)});
    const auto current = prices::currentPrice(latest.of(1), {"steam", "skinport"}, kNow);
    CPPUNIT_ASSERT_EQUAL(INT64_C(490), *current.price);
    CPPUNIT_ASSERT_EQUAL(std::string("skinport"), *current.source);
  }

  void currentPriceFallsBackToNewestOfAnySource() {
    prices::LatestPrices latest;
    // skinport's earlier point is older than 24 h: no source qualifies.
    latest.apply({point("steam", kNow - 100, 500), point("skinport", kNow - 90000, 480),
                  point("skinport", kNow - 50, 490)});
    const auto current = prices::currentPrice(latest.of(1), {"steam", "skinport"}, kNow);
    CPPUNIT_ASSERT_EQUAL(INT64_C(490), *current.price);
    CPPUNIT_ASSERT_EQUAL(std::string("skinport"), *current.source);
    const auto none = prices::currentPrice({}, {"steam"}, kNow);
    CPPUNIT_ASSERT(!none.price && !none.source);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LatestPricesTest);
