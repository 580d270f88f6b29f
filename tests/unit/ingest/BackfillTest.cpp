#include "ingest/Backfill.hpp"
#include "mocks/NullPriceStore.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <ctime>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

using namespace skinpulse;

namespace {

constexpr std::int64_t kNow = 1795348800;  // 2026-11-22T12:00:00Z, after every line's time

// An in-memory PriceStore with the store's dedupe rule: (item, source, time) is the key.
class MemoryPrices final : public test::NullPriceStore {
 public:
  std::size_t insert(const std::vector<store::PricePoint>& points) override {
    std::size_t added = 0;
    for (const auto& p : points) {
      if (keys.insert({p.item_id, p.source, p.time}).second) {
        stored.push_back(p);
        ++added;
      }
    }
    return added;
  }
  std::size_t insertBackfill(const std::vector<store::PricePoint>& points) override {
    ++revision;
    return insert(points);
  }
  std::int64_t backfillRevision() override { return revision; }

  std::set<std::tuple<std::int64_t, std::string, std::int64_t>> keys;
  std::vector<store::PricePoint> stored;
  std::int64_t revision = 0;
};

}  // namespace

class BackfillTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BackfillTest);
  CPPUNIT_TEST(storesValidLinesAndCountsTheRest);
  CPPUNIT_TEST(secondRunStoresNothingNew);
  CPPUNIT_TEST(readsKindAndListings);
  CPPUNIT_TEST(unknownNamesReadAgainWithARefreshedCatalogue);
  CPPUNIT_TEST(storesInTimeOrderWhateverTheFileOrder);
  CPPUNIT_TEST(historyOlderThanRetentionGoesToRollupsOnly);
  CPPUNIT_TEST_SUITE_END();

  catalog::CatalogSnapshot catalog_{
      {store::ItemRecord{1, "★ Karambit | Doppler (Factory New)", "Karambit", "Doppler", "Covert",
                         false, "", 0},
       store::ItemRecord{2, "Recoil Case", "Container", "Recoil Case", "Base Grade", false, "",
                         0}}};

  static std::string input() {
    return R"j({"market_hash_name":"★ Karambit | Doppler (Factory New)","source":"a","time":"2026-11-22T10:00:00Z","price":150000,"volume":2})j"
           "\n"
           R"j({"market_hash_name":"  Recoil Case ","source":"a","time":"2026-11-22T10:00:00Z","price":45})j"
           "\n\n"
           R"j({"market_hash_name":"Recoil Case","source":"a","time":"2026-11-22T10:00:00Z","price":46})j"
           "\n"
           R"j({"market_hash_name":"Unknown","source":"a","time":"2026-11-22T10:00:00Z","price":1})j"
           "\n"
           R"j({"market_hash_name":"Recoil Case","source":"a","time":"yesterday","price":1})j"
           "\n"
           R"j({"market_hash_name":"Recoil Case","source":"a","time":"2026-11-22T11:00:00Z","price":4.5})j"
           "\n"
           R"j({"market_hash_name":"Recoil Case","source":"a","time":"2026-11-22T11:00:00Z","price":0})j"
           "\n"
           R"j({"market_hash_name":{"x":1},"source":"a","time":"2026-11-22T11:00:00Z","price":3})j"
           "\n"
           "not json\n";
  }

 public:
  void storesValidLinesAndCountsTheRest() {
    MemoryPrices prices;
    std::istringstream in(input());
    const auto result = ingest::backfill(in, catalog_, prices, kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t(9), result.read);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), result.stored);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.duplicates);  // same key, other price
    // The normaliser's reasons, as for polled sources.
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.rejected.at("not in catalogue"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.rejected.at("price unreadable or not positive"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.rejected.at("bad time"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1),
                         result.rejected.at("price not an integer number of cents"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.rejected.at("malformed JSON"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.rejected.at("field of the wrong type"));
    // Each reason with its first line (blank lines count).
    const std::map<std::string, std::size_t> first = {{"not in catalogue", 5},
                                                      {"bad time", 6},
                                                      {"price not an integer number of cents", 7},
                                                      {"price unreadable or not positive", 8},
                                                      {"field of the wrong type", 9},
                                                      {"malformed JSON", 10}};
    CPPUNIT_ASSERT(result.first_line == first);
    CPPUNIT_ASSERT_EQUAL(INT64_C(150000), prices.stored[0].price);
    CPPUNIT_ASSERT_EQUAL(INT64_C(2), prices.stored[0].volume);
    CPPUNIT_ASSERT_EQUAL(INT64_C(45), prices.stored[1].price);
    CPPUNIT_ASSERT_EQUAL(INT64_C(0), prices.stored[1].volume);
  }

  // docs/api.md §20: years of history can be imported; what is older than the raw
  // retention (from the start of its UTC day) lands in the rollups only.
  void historyOlderThanRetentionGoesToRollupsOnly() {
    CPPUNIT_ASSERT_EQUAL(std::numeric_limits<std::int64_t>::min(),
                         ingest::backfillRawFrom(kNow, 0));
    // 2026-11-22T12:00Z minus 30 days is 2026-10-23T12:00Z; the cut is that day's midnight.
    CPPUNIT_ASSERT_EQUAL(INT64_C(1792713600), ingest::backfillRawFrom(kNow, 30));

    auto db = store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql");
    db->catalog().seed(
        {{"★ Karambit | Doppler (Factory New)", "Karambit", "Doppler", "Covert", false, ""},
         {"Recoil Case", "Container", "Recoil Case", "Base Grade", false, ""}},
        0);
    std::string lines;
    // Two years, one point a day at noon and one at 13:00, then the last days.
    for (std::int64_t day = 730; day >= 1; --day) {
      for (const std::int64_t hour : {12, 13}) {
        const std::time_t t = static_cast<std::time_t>(kNow - day * 86400 + (hour - 12) * 3600);
        std::tm utc{};
        gmtime_r(&t, &utc);
        char stamp[32];
        std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
        lines += std::string(R"({"market_hash_name":"Recoil Case","source":"a","time":")") + stamp +
                 R"(","price":)" + std::to_string(100 + day + hour) + R"(,"volume":1})" + "\n";
      }
    }
    for (int pass = 0; pass < 2; ++pass) {
      std::istringstream in(lines);
      ingest::BackfillOptions options;
      options.raw_retention_days = 30;
      const auto result = ingest::backfill(in, catalog_, db->prices(), kNow, options);
      CPPUNIT_ASSERT_EQUAL(std::size_t{1460}, result.read);
      // The second import finds everything stored: raw keys and rollup buckets alike.
      CPPUNIT_ASSERT_EQUAL(pass == 0 ? std::size_t{1460} : std::size_t{0}, result.stored);
    }
    // Raw: the days from the cut on (2026-10-23 .. 2026-11-21).
    const auto raw = db->prices().history(2, 0, std::nullopt);
    CPPUNIT_ASSERT_EQUAL(std::size_t{60}, raw.size());
    CPPUNIT_ASSERT(raw.front().time >= ingest::backfillRawFrom(kNow, 30));
    // Rollups: every day of the two years, each day's open at noon and close at 13:00.
    const auto days = db->prices().rollups(2, "a", store::RollupLevel::kDay, 0);
    CPPUNIT_ASSERT_EQUAL(std::size_t{730}, days.size());
    CPPUNIT_ASSERT_EQUAL(INT64_C(100 + 730 + 12), days.front().open);
    CPPUNIT_ASSERT_EQUAL(INT64_C(100 + 730 + 13), days.front().close);
    CPPUNIT_ASSERT_EQUAL(INT64_C(2), days.front().samples);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1460},
                         db->prices().rollups(2, "a", store::RollupLevel::kHour, 0).size());
  }

  void readsKindAndListings() {
    MemoryPrices prices;
    std::istringstream in(
        R"j({"market_hash_name":"Recoil Case","source":"b","time":"2026-11-22T10:00:00Z","price":40,"kind":"bid","listings":12})j"
        "\n"
        R"j({"market_hash_name":"Recoil Case","source":"b","time":"2026-11-22T10:05:00Z","price":41,"kind":null,"listings":null})j"
        "\n"
        R"j({"market_hash_name":"Recoil Case","source":"b","time":"2026-11-22T10:10:00Z","price":42,"kind":"offer"})j"
        "\n"
        R"j({"market_hash_name":"Recoil Case","source":"b","time":"2026-11-22T10:15:00Z","price":43,"listings":"many"})j"
        "\n");
    const auto result = ingest::backfill(in, catalog_, prices, kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), result.stored);
    CPPUNIT_ASSERT(prices.stored[0].kind == sdk::PriceKind::kBid);
    CPPUNIT_ASSERT_EQUAL(INT64_C(12), prices.stored[0].listings.value_or(0));
    CPPUNIT_ASSERT(prices.stored[1].kind == sdk::PriceKind::kAsk);
    CPPUNIT_ASSERT(!prices.stored[1].listings);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1),
                         result.rejected.at("kind not ask, bid, sale or reference"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.rejected.at("listings not an integer"));
  }

  void unknownNamesReadAgainWithARefreshedCatalogue() {
    MemoryPrices prices;
    std::istringstream in(input());
    int refreshed = 0;
    ingest::BackfillOptions options;
    options.refresh_catalog = [&]() -> std::unique_ptr<const catalog::CatalogSnapshot> {
      ++refreshed;
      return std::make_unique<const catalog::CatalogSnapshot>(std::vector<store::ItemRecord>{
          store::ItemRecord{1, "★ Karambit | Doppler (Factory New)", "", "", "", false, "", 0},
          store::ItemRecord{2, "Recoil Case", "", "", "", false, "", 0},
          store::ItemRecord{3, "Unknown", "", "", "", false, "", 0}});
    };
    const auto result = ingest::backfill(in, catalog_, prices, kNow, options);
    CPPUNIT_ASSERT_EQUAL(1, refreshed);
    CPPUNIT_ASSERT_EQUAL(std::size_t(9), result.read);  // counted once, not twice
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), result.stored);
    CPPUNIT_ASSERT(result.rejected.count("not in catalogue") == 0);
  }

  void storesInTimeOrderWhateverTheFileOrder() {
    MemoryPrices prices;
    std::istringstream in(
        R"j({"market_hash_name":"Recoil Case","source":"b","time":"2026-11-22T10:10:00Z","price":42})j"
        "\n"
        R"j({"market_hash_name":"Recoil Case","source":"b","time":"2026-11-22T10:00:00Z","price":40})j"
        "\n"
        R"j({"market_hash_name":"Recoil Case","source":"a","time":"2026-11-22T10:10:00Z","price":41})j"
        "\n");
    ingest::backfill(in, catalog_, prices, kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), prices.stored.size());
    CPPUNIT_ASSERT_EQUAL(INT64_C(40), prices.stored[0].price);
    CPPUNIT_ASSERT_EQUAL(INT64_C(41), prices.stored[1].price);  // same time: source a first
    CPPUNIT_ASSERT_EQUAL(INT64_C(42), prices.stored[2].price);
  }

  void secondRunStoresNothingNew() {
    MemoryPrices prices;
    std::istringstream first(input());
    ingest::backfill(first, catalog_, prices, kNow);
    std::istringstream second(input());
    const auto again = ingest::backfill(second, catalog_, prices, kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), again.stored);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), prices.stored.size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BackfillTest);
