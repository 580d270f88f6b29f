// The csgo-trader mirror files through json_http, configured as the shipped drop-ins
// (etc/skinpulse/conf.d/52-, 53-, 54-): Buff163's per-phase `doppler` prices become quotes
// of their variant beside the name's own price; YouPin's values are read whichever of the
// shapes public clients disagree on (a number, {"price"}, {"starting_at":{"price"}}).

#include "ContractSupport.hpp"
#include "JsonHttpSource.hpp"
#include "mocks/MockHost.hpp"

#include <map>

using namespace sources_contract_test;
using skinpulse::plugins::json_http::JsonHttpSource;
using skinpulse::sdk::PollReport;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;

namespace {

PollReport pollFile(const std::string& file, std::map<std::string, std::string> keys) {
  MockHost host;
  host.settings = std::move(keys);
  host.settings["url"] = "https://prices.csgotrader.test/latest/" + file;
  host.settings["price_unit"] = "major";
  host.settings["volume_field"] = "";
  host.settings["time_field"] = "";
  host.http_client.on(host.settings["url"], MockHttp::ok(upstream("csgotrader", file)));
  JsonHttpSource source(host);
  return source.poll();
}

}  // namespace

class CsgotraderContractTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CsgotraderContractTest);
  CPPUNIT_TEST(buffAsksCarryPerPhasePrices);
  CPPUNIT_TEST(buffBidsCarryPerPhasePrices);
  CPPUNIT_TEST(youpinReadsEveryValueShape);
  CPPUNIT_TEST_SUITE_END();

 public:
  void buffAsksCarryPerPhasePrices() {
    const PollReport report = pollFile(
        "buff163.json",
        {{"price_field", "/starting_at/price"}, {"variant_prices_field", "/starting_at/doppler"}});
    CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::size_t{9}, report.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3648},
                         centsOf(quoteOf(report, "AK-47 | Redline (Field-Tested)")));
    const std::string karambit = "★ Karambit | Doppler (Factory New)";
    CPPUNIT_ASSERT_EQUAL(std::int64_t{170231}, centsOf(quoteOf(report, karambit)));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{165020}, centsOf(quoteOf(report, karambit, "Phase 1")));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{189000}, centsOf(quoteOf(report, karambit, "Phase 2")));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{950050}, centsOf(quoteOf(report, karambit, "Ruby")));
    const std::string glock = "Glock-18 | Gamma Doppler (Factory New)";
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30150}, centsOf(quoteOf(report, glock)));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30150}, centsOf(quoteOf(report, glock, "Phase 3")));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{240000}, centsOf(quoteOf(report, glock, "Emerald")));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5},
                         centsOf(quoteOf(report, "Sticker | syrsoN (Glitter) | Rio 2022")));
    // "Sapphire": null has no price; "Phase 9" names no variant.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skippedFor(report.skipped, "no_price"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skippedFor(report.skipped, "unknown_variant"));
  }

  void buffBidsCarryPerPhasePrices() {
    const PollReport report =
        pollFile("buff163.json", {{"price_field", "/highest_order/price"},
                                  {"variant_prices_field", "/highest_order/doppler"}});
    CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, report.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3590},
                         centsOf(quoteOf(report, "AK-47 | Redline (Field-Tested)")));
    const std::string karambit = "★ Karambit | Doppler (Factory New)";
    CPPUNIT_ASSERT_EQUAL(std::int64_t{165510}, centsOf(quoteOf(report, karambit)));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{160000}, centsOf(quoteOf(report, karambit, "Phase 1")));
    // The Glock and the sticker have "highest_order": null: no buy order.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, skippedFor(report.skipped, "no_price"));
  }

  void youpinReadsEveryValueShape() {
    const PollReport report = pollFile("youpin.json", {{"price_field", ""}});
    CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, report.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3702},
                         centsOf(quoteOf(report, "AK-47 | Redline (Field-Tested)")));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{14390},
                         centsOf(quoteOf(report, "AWP | Asiimov (Field-Tested)")));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{38}, centsOf(quoteOf(report, "Recoil Case")));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skippedFor(report.skipped, "no_price"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, totalSkipped(report.skipped));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CsgotraderContractTest);
