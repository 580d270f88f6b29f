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
  CPPUNIT_TEST_SUITE_END();

  CatalogSnapshot catalog_{{ItemRecord{7, "★ StatTrak™ Karambit | Fade (Factory New)", "Karambit",
                                       "Fade", "Covert", true, "", 0}}};

 public:
  void matchesTrimmedNamesExactly() {
    const auto batch = normalise(
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
    const auto batch = normalise(
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
    const auto batch = normalise(
        "s", 5000, {observation(name, text("1"), 4000), observation(name, text("2"))}, catalog_);
    CPPUNIT_ASSERT_EQUAL(INT64_C(4000), batch.points.at(0).time);
    CPPUNIT_ASSERT_EQUAL(INT64_C(5000), batch.points.at(1).time);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(NormaliserTest);
