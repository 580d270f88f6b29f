// lis-skins' export as its typed clients model it (tests/fixtures/upstream/lisskins/): only
// lots a buyer can take now set the price (unlock_at after the poll time: skipped as
// locked; a lock that has ended counts), each Doppler phase (item_paint_index) is priced
// apart, and what was read and skipped is reported.

#include "ContractSupport.hpp"
#include "LisskinsSource.hpp"
#include "mocks/MockHost.hpp"

using namespace sources_contract_test;
using skinpulse::plugins::lisskins::ExportReader;
using skinpulse::plugins::lisskins::LisskinsSource;
using skinpulse::plugins::lisskins::PriceStatistic;
using skinpulse::sdk::PollReport;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;

namespace {

// The poll time: 2026-11-22T10:15:00Z, MockHost's clock. Lots 9002 (until 11-29) and 9006
// (until 11-30) are locked then; lot 9003's lock ended on 11-20.
constexpr std::int64_t kNow = 1795342500;

void checkReport(const PollReport& report) {
  CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
  CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, report.rows_read);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, skippedFor(report.skipped, "locked"));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, totalSkipped(report.skipped));
  CPPUNIT_ASSERT_EQUAL(std::size_t{4}, report.quotes.size());
  // 12.35 and 12.90 (lock ended); the locked 10.10 never sets the price. Paint 282 is no
  // variant finish: the name itself.
  const auto& redline = quoteOf(report, "AK-47 | Redline (Field-Tested)");
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1235}, centsOf(redline));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, redline.listings.value_or(-1));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1795340000}, redline.observed_at.value_or(0));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{83}, centsOf(quoteOf(report, "AWP | Phobos (Minimal Wear)")));
  const std::string karambit = "★ Karambit | Doppler (Factory New)";
  const auto& phase1 = quoteOf(report, karambit, "Phase 1");  // 418; the locked 1500.00 not
  CPPUNIT_ASSERT_EQUAL(std::int64_t{165020}, centsOf(phase1));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, phase1.listings.value_or(-1));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{950050}, centsOf(quoteOf(report, karambit, "Ruby")));  // 415
}

}  // namespace

class LisskinsContractTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LisskinsContractTest);
  CPPUNIT_TEST(onlyTradableLotsPricePerVariant);
  CPPUNIT_TEST(thePollHoldsLocksAgainstTheHostClock);
  CPPUNIT_TEST(anExportOfLockedLotsOnlyIsNoSuccess);
  CPPUNIT_TEST_SUITE_END();

 public:
  void onlyTradableLotsPricePerVariant() {
    ExportReader reader(kNow);
    CPPUNIT_ASSERT(reader.feed(upstream("lisskins", "export_lots.json")));
    checkReport(reader.finish(PriceStatistic::kMin));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, reader.counts().locked);
  }

  void thePollHoldsLocksAgainstTheHostClock() {
    MockHost host;
    const std::string url = "http://lisskins.test/market_export_json/api_csgo_full.json";
    host.settings = {{"url", url}, {"price_statistic", "min"}};
    host.http_client.on(url, MockHttp::ok(upstream("lisskins", "export_lots.json")));
    LisskinsSource source(host);
    checkReport(source.poll());
  }

  void anExportOfLockedLotsOnlyIsNoSuccess() {
    ExportReader reader(kNow);
    reader.feed(R"({"last_update":1795340000,"items":[{"name":"Recoil Case","price":0.3,)"
                R"("unlock_at":"2026-12-01T00:00:00.000000Z"}]})");
    const PollReport report = reader.finish(PriceStatistic::kP05);
    CPPUNIT_ASSERT(report.status.code() == skinpulse::sdk::Status::Code::kMalformed);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skippedFor(report.skipped, "locked"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LisskinsContractTest);
