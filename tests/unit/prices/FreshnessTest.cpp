// Freshness (docs/api.md §12): 3 × interval_seconds (or fresh_seconds) for polled
// sources and their NAME-<kind> series, 24 h for the others (disabled, backfilled,
// unknown); "younger than" is strict.

#include "prices/Freshness.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::prices;

class FreshnessTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FreshnessTest);
  CPPUNIT_TEST(polledSourcesGetThreeIntervals);
  CPPUNIT_TEST(otherSourcesGetADay);
  CPPUNIT_TEST(theLimitItselfIsStale);
  CPPUNIT_TEST(freshSecondsOverridesTheIntervals);
  CPPUNIT_TEST(anInstancesOtherKindsAreAsFreshAsTheInstance);
  CPPUNIT_TEST_SUITE_END();

  static Freshness make() {
    return Freshness({SourceProfile{"skinport", "skinport", sdk::PriceKind::kAsk, true, 300, 0},
                      SourceProfile{"old", "csfloat", sdk::PriceKind::kAsk, false, 60, 0}});
  }

 public:
  void polledSourcesGetThreeIntervals() {
    const auto freshness = make();
    CPPUNIT_ASSERT_EQUAL(std::int64_t{900}, freshness.maxAge("skinport"));
    CPPUNIT_ASSERT(freshness.fresh("skinport", 1000, 1000 + 899));
    CPPUNIT_ASSERT(!freshness.fresh("skinport", 1000, 1000 + 901));
  }
  void otherSourcesGetADay() {
    const auto freshness = make();
    CPPUNIT_ASSERT_EQUAL(std::int64_t{86400}, freshness.maxAge("old"));  // disabled
    CPPUNIT_ASSERT_EQUAL(std::int64_t{86400}, freshness.maxAge("backfilled"));
    CPPUNIT_ASSERT(freshness.fresh("backfilled", 0, 86399));
    CPPUNIT_ASSERT(Freshness().fresh("anything", 100, 50));  // from the future
  }
  void theLimitItselfIsStale() { CPPUNIT_ASSERT(!make().fresh("skinport", 1000, 1900)); }

  // dmarket polls every 5 s but revisits an item once per pass over the catalogue.
  void freshSecondsOverridesTheIntervals() {
    const Freshness freshness(
        {SourceProfile{"dmarket", "dmarket", sdk::PriceKind::kAsk, true, 5, 0, 1200}});
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1200}, freshness.maxAge("dmarket"));
    CPPUNIT_ASSERT(freshness.fresh("dmarket", 1000, 1000 + 1199));
    CPPUNIT_ASSERT(!freshness.fresh("dmarket", 1000, 1000 + 1200));
  }

  void anInstancesOtherKindsAreAsFreshAsTheInstance() {
    const auto freshness = make();
    CPPUNIT_ASSERT_EQUAL(std::int64_t{900}, freshness.maxAge("skinport-reference"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{900}, freshness.maxAge("skinport-bid"));
    // Not a kind, or not an instance: a day, as any unknown name.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{86400}, freshness.maxAge("skinport-eu"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{86400}, freshness.maxAge("other-bid"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{86400}, freshness.maxAge("-bid"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FreshnessTest);
