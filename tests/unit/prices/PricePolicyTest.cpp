// PricePolicy (docs/api.md §3.1, §12): the one place the reference order, freshness and
// outlier exclusion are decided for every consumer. These tests pin what each consumer
// relies on: the enabled sources in configuration order, the configured reference order
// winning over it, freshness per source, and outliers left out only when excluded.

#include "prices/PricePolicy.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::prices;

namespace {

constexpr std::int64_t kNow = 1'700'000'000;

SourceProfile source(const std::string& name, bool enabled, int interval_seconds = 60) {
  SourceProfile profile;
  profile.name = name;
  profile.plugin = name;
  profile.enabled = enabled;
  profile.interval_seconds = interval_seconds;
  return profile;
}

store::PricePoint point(const std::string& source, std::int64_t age, bool outlier = false) {
  store::PricePoint p{1, source, kNow - age, 1000, 1};
  p.outlier = outlier;
  return p;
}

prices::SourceLatest latest(const std::string& source, std::int64_t price, bool outlier,
                            std::optional<std::int64_t> trusted) {
  prices::SourceLatest entry;
  entry.newest = store::PricePoint{1, source, kNow - 10, price, 1};
  entry.newest.outlier = outlier;
  entry.trusted_price = trusted;
  return entry;
}

}  // namespace

class PricePolicyTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PricePolicyTest);
  CPPUNIT_TEST(enabledSourcesKeepConfigurationOrder);
  CPPUNIT_TEST(referenceOrderIsEnabledThenOthersAlphabetically);
  CPPUNIT_TEST(configuredReferenceOrderWins);
  CPPUNIT_TEST(freshnessIsPerSource);
  CPPUNIT_TEST(trustsFreshUnflaggedPoints);
  CPPUNIT_TEST(keepsFlaggedPointsWhenOutliersAreIncluded);
  CPPUNIT_TEST(trustedLatestReplacesOrDropsFlaggedPrices);
  CPPUNIT_TEST(defaultsAreThoseOfTheConfiguration);
  CPPUNIT_TEST_SUITE_END();

  static PricePolicy make(bool exclude_outliers, std::vector<std::string> reference = {}) {
    return PricePolicy({source("skinport", true, 300), source("old", false), source("buff", true)},
                       std::move(reference), exclude_outliers, 2.5);
  }

 public:
  void enabledSourcesKeepConfigurationOrder() {
    const auto policy = make(true);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, policy.sources().size());
    CPPUNIT_ASSERT(policy.enabledSources() == (std::vector<std::string>{"skinport", "buff"}));
    CPPUNIT_ASSERT(policy.configuredReferenceSources().empty());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, policy.outlierFactor(), 1e-12);
  }
  void referenceOrderIsEnabledThenOthersAlphabetically() {
    // The disabled "old" and a backfilled "csv" are known only from the store.
    const auto order = make(true).referenceOrder({"old", "buff", "csv", "skinport"});
    CPPUNIT_ASSERT(order == (std::vector<std::string>{"skinport", "buff", "csv", "old"}));
  }
  void configuredReferenceOrderWins() {
    const auto policy = make(true, {"buff", "old"});
    CPPUNIT_ASSERT(policy.referenceOrder({"skinport", "csv"}) ==
                   (std::vector<std::string>{"buff", "old"}));
    CPPUNIT_ASSERT(policy.configuredReferenceSources() ==
                   (std::vector<std::string>{"buff", "old"}));
  }
  void freshnessIsPerSource() {
    const auto policy = make(true);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{900}, policy.freshness().maxAge("skinport"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{180}, policy.freshness().maxAge("buff"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{86400}, policy.freshness().maxAge("old"));  // disabled
    CPPUNIT_ASSERT(policy.trusts(point("skinport", 899), kNow));
    CPPUNIT_ASSERT(!policy.trusts(point("skinport", 900), kNow));
    CPPUNIT_ASSERT(!policy.trusts(point("buff", 181), kNow));
    CPPUNIT_ASSERT(policy.trusts(point("old", 86399), kNow));
  }
  void trustsFreshUnflaggedPoints() {
    const auto policy = make(true);
    CPPUNIT_ASSERT(policy.excludeOutliers());
    CPPUNIT_ASSERT(policy.trusts(point("buff", 10), kNow));
    CPPUNIT_ASSERT(!policy.trusts(point("buff", 10, true), kNow));
    CPPUNIT_ASSERT(policy.drops(point("buff", 10, true)));
    CPPUNIT_ASSERT(!policy.drops(point("buff", 10)));
    CPPUNIT_ASSERT(policy.drops(point("buff", 100000, true)));  // freshness aside
  }
  void keepsFlaggedPointsWhenOutliersAreIncluded() {
    const auto policy = make(false);
    CPPUNIT_ASSERT(!policy.excludeOutliers());
    CPPUNIT_ASSERT(policy.trusts(point("buff", 10, true), kNow));
    CPPUNIT_ASSERT(!policy.drops(point("buff", 10, true)));
    CPPUNIT_ASSERT(!policy.trusts(point("buff", 181, true), kNow));  // still stale
  }
  void trustedLatestReplacesOrDropsFlaggedPrices() {
    const std::vector<prices::SourceLatest> input = {latest("skinport", 1000, false, std::nullopt),
                                                     latest("buff", 9000, true, 1100),
                                                     latest("csv", 7000, true, std::nullopt)};
    const auto trusted = make(true).trustedLatest(input);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, trusted.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1000}, trusted[0].newest.price);
    CPPUNIT_ASSERT_EQUAL(std::string("buff"), trusted[1].newest.source);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1100}, trusted[1].newest.price);  // its trusted price
    CPPUNIT_ASSERT(!trusted[1].newest.outlier);

    const auto kept = make(false).trustedLatest(input);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, kept.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{9000}, kept[1].newest.price);
    CPPUNIT_ASSERT(kept[2].newest.outlier);
  }
  void defaultsAreThoseOfTheConfiguration() {
    // [quality] exclude_outliers = true, outlier_factor = 3; no source: a day for every name.
    const PricePolicy policy;
    CPPUNIT_ASSERT(policy.excludeOutliers());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, policy.outlierFactor(), 1e-12);
    CPPUNIT_ASSERT(policy.enabledSources().empty());
    CPPUNIT_ASSERT(policy.trusts(point("anything", 86399), kNow));
    CPPUNIT_ASSERT(policy.referenceOrder({"b", "a"}) == (std::vector<std::string>{"a", "b"}));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PricePolicyTest);
