// Outliers (docs/api.md §12): the median rule with 3 or more fresh sources, the
// previous-point rule with fewer, a spike confirmed by the next point, stale sources
// left out, and the order a batch is judged in.

#include "quality/Outliers.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::quality;
using skinpulse::prices::Freshness;
using skinpulse::prices::SourceProfile;

namespace {

constexpr std::int64_t kT = 1'800'000'000;

store::PricePoint at(const std::string& source, std::int64_t time, std::int64_t price,
                     std::int64_t item = 1) {
  store::PricePoint point;
  point.item_id = item;
  point.source = source;
  point.time = time;
  point.price = price;
  return point;
}

}  // namespace

class OutliersTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(OutliersTest);
  CPPUNIT_TEST(theBandIsInclusive);
  CPPUNIT_TEST(twoSourcesCompareWithThePreviousTrustedPoint);
  CPPUNIT_TEST(aSpikeConfirmedByTheNextPointIsUnflagged);
  CPPUNIT_TEST(aConfirmationWithinOneBatchUnflagsInPlace);
  CPPUNIT_TEST(threeSourcesCompareWithTheOthersMedian);
  CPPUNIT_TEST(staleAndFlaggedSourcesAreNoReference);
  CPPUNIT_TEST(storedAndOlderPointsAreNotJudgedAgain);
  CPPUNIT_TEST(judgesOnTopOfTheLatestPrices);
  CPPUNIT_TEST_SUITE_END();

  // "a", "b", "c" poll every 60 s: fresh for 180 s.
  Freshness freshness_{{SourceProfile{"a", "x", sdk::PriceKind::kAsk, true, 60, 0},
                        SourceProfile{"b", "x", sdk::PriceKind::kAsk, true, 60, 0},
                        SourceProfile{"c", "x", sdk::PriceKind::kAsk, true, 60, 0}}};

  std::vector<store::PricePoint> judge(std::vector<store::PricePoint> points,
                                       std::vector<store::PricePoint>* confirmed = nullptr) {
    auto cleared = judgeBatch(freshness_, 3.0, prices::LatestPrices::Snapshot{}, points);
    if (confirmed != nullptr) *confirmed = cleared;
    return points;
  }

 public:
  void theBandIsInclusive() {
    CPPUNIT_ASSERT(!outsideBand(300, 100.0, 3.0));
    CPPUNIT_ASSERT(outsideBand(301, 100.0, 3.0));
    CPPUNIT_ASSERT(!outsideBand(100, 300.0, 3.0));
    CPPUNIT_ASSERT(outsideBand(99, 300.0, 3.0));
  }

  void twoSourcesCompareWithThePreviousTrustedPoint() {
    // a: 1000, an 18-cent print, then 1010: the print stays flagged (not confirmed) and
    // 1010 is judged against 1000, not against the print.
    const auto out = judge(
        {at("a", kT, 1000), at("b", kT, 1100), at("a", kT + 60, 18), at("a", kT + 120, 1010)});
    CPPUNIT_ASSERT(!out[0].outlier);
    CPPUNIT_ASSERT(!out[1].outlier);
    CPPUNIT_ASSERT(out[2].outlier);
    CPPUNIT_ASSERT(!out[3].outlier);
  }

  void aSpikeConfirmedByTheNextPointIsUnflagged() {
    prices::LatestPrices latest;
    auto first = judge({at("a", kT, 1000), at("a", kT + 60, 3500)});
    CPPUNIT_ASSERT(first[1].outlier);
    latest.apply(first);
    // The next point (3400) agrees with 3500: a new level, not a spike.
    std::vector<store::PricePoint> points{at("a", kT + 120, 3400)};
    const auto confirmed = judgeBatch(freshness_, 3.0, *latest.snapshot(), points);
    CPPUNIT_ASSERT(!points[0].outlier);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, confirmed.size());
    CPPUNIT_ASSERT_EQUAL(kT + 60, confirmed[0].time);
    CPPUNIT_ASSERT(!confirmed[0].outlier);
    // Folding the confirmation clears the cached flag.
    latest.apply(confirmed);
    CPPUNIT_ASSERT(!latest.of(1)[0].newest.outlier);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3500}, *latest.of(1)[0].trusted_price);
  }

  void aConfirmationWithinOneBatchUnflagsInPlace() {
    std::vector<store::PricePoint> confirmed;
    const auto out =
        judge({at("a", kT, 1000), at("a", kT + 60, 4000), at("a", kT + 120, 4100)}, &confirmed);
    CPPUNIT_ASSERT(!out[1].outlier);
    CPPUNIT_ASSERT(!out[2].outlier);
    CPPUNIT_ASSERT(confirmed.empty());  // nothing stored before needs clearing
  }

  void threeSourcesCompareWithTheOthersMedian() {
    // Others 1000 and 1100: median 1050, band [350, 3150].
    const auto out = judge({at("a", kT, 1000), at("b", kT, 1100), at("c", kT + 10, 5000),
                            at("c", kT + 70, 3150), at("c", kT + 130, 349)});
    CPPUNIT_ASSERT(out[2].outlier);
    CPPUNIT_ASSERT(!out[3].outlier);
    CPPUNIT_ASSERT(out[4].outlier);
    // With 3 fresh sources a flagged point is not confirmed by its next one: c's 5000
    // twice is flagged twice while a and b say 1000.
    const auto twice = judge(
        {at("a", kT, 1000), at("b", kT, 1100), at("c", kT + 10, 5000), at("c", kT + 70, 5000)});
    CPPUNIT_ASSERT(twice[2].outlier);
    CPPUNIT_ASSERT(twice[3].outlier);
  }

  void staleAndFlaggedSourcesAreNoReference() {
    // b's point is 200 s old when c arrives (stale): only one other fresh source, so c
    // (no previous point) is not judged an outlier.
    auto out = judge({at("a", kT + 100, 1000), at("b", kT, 1100), at("c", kT + 200, 5000)});
    CPPUNIT_ASSERT(!out[2].outlier);
    // An unpolled source is fresh for 24 h.
    out = judge({at("a", kT, 1000), at("z", kT - 80000, 1100), at("c", kT + 10, 5000)});
    CPPUNIT_ASSERT(out[2].outlier);
  }

  void storedAndOlderPointsAreNotJudgedAgain() {
    const auto out = judge({at("a", kT, 1000), at("a", kT + 60, 9000), at("a", kT + 60, 1000),
                            at("a", kT + 30, 9000)});
    CPPUNIT_ASSERT(out[1].outlier);
    CPPUNIT_ASSERT(out[2].outlier);   // same key: the stored flag
    CPPUNIT_ASSERT(!out[3].outlier);  // older than the newest: not judged
  }

  void judgesOnTopOfTheLatestPrices() {
    prices::LatestPrices latest;
    latest.apply({at("a", kT, 1000), at("b", kT, 1200), at("a", kT, 1000, 2)});
    std::vector<store::PricePoint> points{at("c", kT + 30, 4000), at("a", kT + 30, 2900, 2)};
    CPPUNIT_ASSERT(judgeBatch(freshness_, 3.0, *latest.snapshot(), points).empty());
    CPPUNIT_ASSERT(points[0].outlier);   // median of 1000 and 1200 is 1100: over 3300
    CPPUNIT_ASSERT(!points[1].outlier);  // item 2: within 3 × its previous 1000
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(OutliersTest);
