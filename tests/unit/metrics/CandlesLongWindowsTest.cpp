// Candles over long windows (docs/api.md §10): 90d, 1y and all with their default 1d
// and weekly bars, which interval each window refuses and how it says so, where the bars
// come from (rollups beyond the raw retention, raw points when outliers count and the
// window lies inside it), a year answered after retention removed its raw points, and the
// history cache's expiry following whole buckets.

#include "CandlesMemoryStore.hpp"
#include "http/Dispatcher.hpp"
#include "metrics/Candles.hpp"
#include "metrics/CandlesApi.hpp"
#include "metrics/CandlesReader.hpp"
#include "metrics/CandlesWindows.hpp"
#include "mocks/TestPricePolicy.hpp"

#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

constexpr std::int64_t kDay = 86400;
constexpr std::int64_t kNow = 1'795'000'000;  // 2026-11-18T11:06:40Z, a Wednesday

Poco::JSON::Object::Ptr parse(std::string_view text) {
  return Poco::JSON::Parser().parse(std::string(text)).extract<Poco::JSON::Object::Ptr>();
}

http::Response get(http::Router& router, const std::string& target) {
  http::Request request;
  request.method = "GET";
  const auto q = target.find('?');
  request.path = target.substr(0, q);
  if (q != std::string::npos) {
    request.query = target.substr(q + 1);
    std::string rest = request.query;
    while (!rest.empty()) {
      const auto amp = rest.find('&');
      const std::string pair = rest.substr(0, amp);
      const auto eq = pair.find('=');
      request.query_params.emplace_back(pair.substr(0, eq),
                                        eq == std::string::npos ? "" : pair.substr(eq + 1));
      rest = amp == std::string::npos ? "" : rest.substr(amp + 1);
    }
  }
  http::Response response;
  http::Dispatcher(router).dispatch(request, response);
  return response;
}

// Two years of one point every three hours for item 1 on "alpha", every 8th flagged.
void fillTwoYears(test::CandlesMemoryStore& store) {
  std::vector<store::PricePoint> points;
  for (std::int64_t t = kNow - 730 * kDay; t < kNow; t += 3 * 3600) {
    store::PricePoint p{1, "alpha", t, 1000 + (t / 3600) % 97, (t / 3600) % 5};
    p.outlier = (t / 3600) % 8 == 0;
    points.push_back(p);
  }
  store.insert(points);
}

}  // namespace

class CandlesLongWindowsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CandlesLongWindowsTest);
  CPPUNIT_TEST(longWindowsDefaultToDailyBarsAndAllowWeekly);
  CPPUNIT_TEST(refusalsNameWhatIsAllowed);
  CPPUNIT_TEST(theFirstBarIsAWholeBucket);
  CPPUNIT_TEST(weeklyBarsStartOnMondayAndFoldTheirDays);
  CPPUNIT_TEST(originFollowsIntervalRetentionAndOutlierPolicy);
  CPPUNIT_TEST(aYearAnswersFromRollupsAfterRetentionRemovedTheRawPoints);
  CPPUNIT_TEST(apiServesLongWindowsAndRefusesAsProblems);
  CPPUNIT_TEST(cachedLongWindowsEqualUncachedAcrossBucketBoundaries);
  CPPUNIT_TEST_SUITE_END();

  catalog::Catalog catalog_;
  prices::LatestPrices latest_;
  test::CandlesMemoryStore store_;
  prices::PricePolicy policy_ = test::pricePolicy({"alpha"}, true, {}, 365 * 86400);

 public:
  void setUp() override {
    store::ItemRecord item;
    item.id = 1;
    item.market_hash_name = "AK-47 | Redline (Field-Tested)";
    catalog_.reset({item});
    fillTwoYears(store_);
    const store::PricePoint last{1, "alpha", kNow - 3 * 3600, 1000, 1};
    latest_.reset({store::PriceStore::Latest{last, last.time - 3 * 3600}});
  }

  void longWindowsDefaultToDailyBarsAndAllowWeekly() {
    for (const char* name : {"90d", "1y", "all"}) {
      const auto window = metrics::candleWindow(name);
      CPPUNIT_ASSERT_MESSAGE(name, window.has_value());
      CPPUNIT_ASSERT(window->default_interval == "1d");
      CPPUNIT_ASSERT(!metrics::intervalRefusal(*window, "1d"));
      CPPUNIT_ASSERT(!metrics::intervalRefusal(*window, "1w"));
      CPPUNIT_ASSERT(metrics::intervalRefusal(*window, "1h"));
    }
    CPPUNIT_ASSERT_EQUAL(std::int64_t{90 * kDay}, metrics::candleWindow("90d")->seconds);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{365 * kDay}, metrics::candleWindow("1y")->seconds);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, metrics::candleWindow("all")->seconds);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7 * kDay}, *metrics::candleIntervalSeconds("1w"));
    CPPUNIT_ASSERT(!metrics::intervalRefusal(*metrics::candleWindow("30d"), "1w"));
    for (const char* name : {"1h", "24h", "7d"}) {
      CPPUNIT_ASSERT_MESSAGE(name, metrics::intervalRefusal(*metrics::candleWindow(name), "1w"));
    }
  }

  void refusalsNameWhatIsAllowed() {
    CPPUNIT_ASSERT_EQUAL(std::string("1h, 24h, 7d, 30d, 90d, 1y or all"),
                         metrics::candleWindowNames());
    CPPUNIT_ASSERT_EQUAL(std::string("1m, 5m, 1h, 1d or 1w"), metrics::candleIntervalNames());
    CPPUNIT_ASSERT_EQUAL(std::string("must be 1m, 5m, 1h, 1d or 1w"),
                         *metrics::intervalRefusal(*metrics::candleWindow("1y"), "2w"));
    CPPUNIT_ASSERT_EQUAL(std::string("is 1w, which needs a window of 30d or longer (window 7d "
                                     "allows 1h or 1d)"),
                         *metrics::intervalRefusal(*metrics::candleWindow("7d"), "1w"));
    CPPUNIT_ASSERT_EQUAL(std::string("is finer than the 1y window allows (window 1y allows 1d or "
                                     "1w)"),
                         *metrics::intervalRefusal(*metrics::candleWindow("1y"), "1h"));
    CPPUNIT_ASSERT_EQUAL(std::string("is finer than the 24h window allows (window 24h allows 5m, "
                                     "1h or 1d)"),
                         *metrics::intervalRefusal(*metrics::candleWindow("24h"), "1m"));
  }

  void theFirstBarIsAWholeBucket() {
    // now − 30 d falls at 09:46:40; the first daily bar starts at that day's midnight and
    // holds the points of the whole day, also those before now − 30 d.
    const auto window = *metrics::candleWindow("30d");
    const std::int64_t from = metrics::candleRangeStart(window, kDay, kNow);
    CPPUNIT_ASSERT_EQUAL((kNow - 30 * kDay) / kDay * kDay, from);
    const metrics::CandlesReader reader(store_, policy_, 30);
    const auto read = reader.read(1, "alpha", window, kDay, kNow);
    CPPUNIT_ASSERT_EQUAL(from, read.candles.front().start);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{8 - 1}, read.candles.front().samples);  // 8 a day, 1 flagged
    CPPUNIT_ASSERT_EQUAL(std::size_t{31}, read.candles.size());
    CPPUNIT_ASSERT_EQUAL(from + kDay + 30 * kDay, read.valid_until);
    CPPUNIT_ASSERT_EQUAL(std::numeric_limits<std::int64_t>::min(),
                         metrics::candleRangeStart(*metrics::candleWindow("all"), kDay, kNow));
  }

  void weeklyBarsStartOnMondayAndFoldTheirDays() {
    const metrics::CandlesReader reader(store_, policy_, 30);
    const auto weeks = reader.read(1, "alpha", *metrics::candleWindow("90d"), 7 * kDay, kNow);
    const auto days = reader.read(1, "alpha", *metrics::candleWindow("90d"), kDay, kNow);
    CPPUNIT_ASSERT(weeks.origin == metrics::CandleOrigin::kDailyRollups);
    CPPUNIT_ASSERT(weeks.candles.size() >= 13 && weeks.candles.size() <= 14);
    std::int64_t week_samples = 0;
    for (const auto& week : weeks.candles) {
      CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, (week.start / kDay - 4) % 7);  // 1970-01-05: Monday
      week_samples += week.samples;
    }
    // Every day of the weeks is in them: the days since the first week's Monday.
    std::int64_t day_samples = 0;
    for (const auto& day : store_.rollups(1, "alpha", store::RollupLevel::kDay, 0)) {
      if (day.start >= weeks.candles.front().start) day_samples += day.samples;
    }
    CPPUNIT_ASSERT_EQUAL(day_samples, week_samples);
    CPPUNIT_ASSERT(days.candles.size() > weeks.candles.size());
    const auto& last_week = weeks.candles.back();
    CPPUNIT_ASSERT_EQUAL(days.candles.back().close, last_week.close);
  }

  void originFollowsIntervalRetentionAndOutlierPolicy() {
    const auto counting = test::pricePolicy({"alpha"}, false);
    const metrics::CandlesReader excluding_reader(store_, policy_, 30);
    const metrics::CandlesReader counting_reader(store_, counting, 30);
    auto origin = [&](const metrics::CandlesReader& r, const char* window, const char* interval) {
      return r.originOf(*metrics::candleWindow(window), *metrics::candleIntervalSeconds(interval),
                        kNow);
    };
    using O = metrics::CandleOrigin;
    CPPUNIT_ASSERT(origin(excluding_reader, "1h", "1m") == O::kRawPoints);
    CPPUNIT_ASSERT(origin(excluding_reader, "24h", "5m") == O::kRawPoints);
    CPPUNIT_ASSERT(origin(excluding_reader, "7d", "1h") == O::kHourlyRollups);
    CPPUNIT_ASSERT(origin(excluding_reader, "1y", "1d") == O::kDailyRollups);
    CPPUNIT_ASSERT(origin(excluding_reader, "all", "1w") == O::kDailyRollups);
    // Outliers count: inside the 30-day raw retention the raw points, flags and all.
    CPPUNIT_ASSERT(origin(counting_reader, "7d", "1h") == O::kRawPoints);
    CPPUNIT_ASSERT(origin(counting_reader, "24h", "1d") == O::kRawPoints);
    // The 30d window's first daily bucket starts before now − 30 d: not inside it.
    CPPUNIT_ASSERT(origin(counting_reader, "30d", "1d") == O::kDailyRollups);
    CPPUNIT_ASSERT(origin(counting_reader, "90d", "1d") == O::kDailyRollups);
    const metrics::CandlesReader long_retention(store_, counting, 400);
    CPPUNIT_ASSERT(origin(long_retention, "1y", "1w") == O::kRawPoints);
    CPPUNIT_ASSERT(origin(long_retention, "all", "1d") == O::kDailyRollups);
    // Read from raw points with outliers counted, the flagged points are in the bars.
    const auto raw = counting_reader.read(1, "alpha", *metrics::candleWindow("7d"), kDay, kNow);
    const auto rolled = excluding_reader.read(1, "alpha", *metrics::candleWindow("7d"), kDay, kNow);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{8}, raw.candles[1].samples);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, rolled.candles[1].samples);
  }

  void aYearAnswersFromRollupsAfterRetentionRemovedTheRawPoints() {
    const metrics::CandlesReader reader(store_, policy_, 30);
    const auto window = *metrics::candleWindow("1y");
    const auto before_day = reader.read(1, "alpha", window, kDay, kNow).candles;
    const auto before_week = reader.read(1, "alpha", window, 7 * kDay, kNow).candles;
    const auto before_all = reader.read(1, "alpha", *metrics::candleWindow("all"), kDay, kNow);
    const std::size_t points = store_.pointCount();
    store_.deleteOlderThan(kNow - 30 * kDay, 0, SIZE_MAX);
    CPPUNIT_ASSERT(store_.pointCount() < points / 20);  // the raw year is gone
    CPPUNIT_ASSERT_EQUAL(std::size_t{366}, before_day.size());
    CPPUNIT_ASSERT(before_day == reader.read(1, "alpha", window, kDay, kNow).candles);
    CPPUNIT_ASSERT(before_week == reader.read(1, "alpha", window, 7 * kDay, kNow).candles);
    const auto after_all = reader.read(1, "alpha", *metrics::candleWindow("all"), kDay, kNow);
    CPPUNIT_ASSERT_EQUAL(std::size_t{731}, after_all.candles.size());  // 730 d from mid-day
    CPPUNIT_ASSERT(before_all.candles == after_all.candles);
    CPPUNIT_ASSERT_EQUAL(INT64_MAX, after_all.valid_until);
    // The daily rollups' own retention ends the "all" window where it ends.
    store_.deleteRollupsBefore(store::RollupLevel::kDay, kNow - 100 * kDay);
    CPPUNIT_ASSERT(
        reader.read(1, "alpha", *metrics::candleWindow("all"), kDay, kNow).candles.size() <= 101);
  }

  void apiServesLongWindowsAndRefusesAsProblems() {
    http::Router router;
    metrics::CandlesApi api(catalog_, latest_, store_, policy_, metrics::CandlesApiConfig{},
                            [] { return kNow; });
    api.registerRoutes(router);
    store_.history_reads = 0;
    for (const char* window : {"90d", "1y", "all"}) {
      const auto response = get(router, std::string("/api/v1/items/1/candles?window=") + window);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(window, 200, response.status);
      const auto body = parse(response.bodyView());
      CPPUNIT_ASSERT_EQUAL(std::string(window), body->getValue<std::string>("window"));
      CPPUNIT_ASSERT_EQUAL(std::string("1d"), body->getValue<std::string>("interval"));
      CPPUNIT_ASSERT_EQUAL(std::string("alpha"), body->getValue<std::string>("source"));
    }
    CPPUNIT_ASSERT_EQUAL(0, store_.history_reads);  // served from the rollups alone
    const auto year =
        parse(get(router, "/api/v1/items/1/candles?window=1y&interval=1w").bodyView());
    const auto weeks = year->getArray("candles");
    CPPUNIT_ASSERT(weeks->size() >= 53 && weeks->size() <= 54);
    CPPUNIT_ASSERT_EQUAL(std::string("2025-11-17T00:00:00Z"),  // the Monday of now − 365 d
                         weeks->getObject(0)->getValue<std::string>("time"));
    struct Refusal {
      const char* target;
      const char* detail;
    };
    for (const auto& [target, detail] : std::initializer_list<Refusal>{
             {"window=2y", "parameter 'window' must be 1h, 24h, 7d, 30d, 90d, 1y or all"},
             {"window=all&interval=1M", "parameter 'interval' must be 1m, 5m, 1h, 1d or 1w"},
             {"window=90d&interval=1h",
              "parameter 'interval' is finer than the 90d window allows (window 90d allows 1d "
              "or 1w)"},
             {"window=7d&interval=1w",
              "parameter 'interval' is 1w, which needs a window of 30d or longer (window 7d "
              "allows 1h or 1d)"},
         }) {
      const auto response = get(router, std::string("/api/v1/items/1/candles?") + target);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(target, 400, response.status);
      const auto problem = parse(response.bodyView());
      CPPUNIT_ASSERT_EQUAL(std::string("invalid_parameter"),
                           problem->getValue<std::string>("code"));
      CPPUNIT_ASSERT_EQUAL(std::string(detail), problem->getValue<std::string>("detail"));
    }
  }

  void cachedLongWindowsEqualUncachedAcrossBucketBoundaries() {
    std::int64_t now = kNow;
    prices::HistoryCache cache(prices::HistoryCacheOptions{8 << 20, 3 * kDay});
    metrics::CandlesApi cached(
        catalog_, latest_, store_, policy_, {}, [&] { return now; }, &cache);
    metrics::CandlesApi uncached(catalog_, latest_, store_, policy_, {}, [&] { return now; });
    http::Router cached_router;
    http::Router uncached_router;
    cached.registerRoutes(cached_router);
    uncached.registerRoutes(uncached_router);
    const std::vector<std::string> targets = {
        "/api/v1/items/1/candles?window=1y", "/api/v1/items/1/candles?window=90d&interval=1w",
        "/api/v1/items/1/candles?window=7d", "/api/v1/items/1/candles?window=30d",
        "/api/v1/items/1/candles?window=all&interval=1w"};
    // Steps of 5 h 50 min for nine days: every daily boundary, a weekly one, passes.
    for (; now < kNow + 9 * kDay; now += 21'000) {
      for (const auto& target : targets) {
        CPPUNIT_ASSERT_EQUAL_MESSAGE(target + " at " + std::to_string(now),
                                     std::string(get(uncached_router, target).bodyView()),
                                     std::string(get(cached_router, target).bodyView()));
      }
    }
    const auto stats = cache.stats();
    CPPUNIT_ASSERT(stats.hits > stats.misses);  // a body lives until its first bucket leaves
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CandlesLongWindowsTest);
