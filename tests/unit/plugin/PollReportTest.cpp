// SDK ABI 1.3 (docs/adr/0022-sdk-abi-1-3.md) through real shared objects: every source is
// polled into one PollReport whatever ABI it was built against. A ReportingSource comes
// through its descriptor's poll entry with its variants, rows read, skip counts and failed
// parts; a QuoteSource built against the frozen ABI 1.2 headers (tests/plugins/abi12)
// still loads and its batch becomes a report whose rows are its quotes; an exception in
// poll() stops at the SDK boundary.

#include "PluginTestSupport.hpp"
#include "plugin/PluginRegistry.hpp"
#include "plugin/SourceFetch.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>
#include <map>
#include <string>

using namespace skinpulse;

namespace {

const std::filesystem::path kCompat13Dir =
    std::filesystem::path(SKINPULSE_TEST_PLUGIN_DIR) / "compat13";

std::int64_t skippedFor(const sdk::PollReport& report, const std::string& reason) {
  for (const auto& [name, count] : report.skipped) {
    if (name == reason) return count;
  }
  return 0;
}

}  // namespace

class PollReportTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PollReportTest);
  CPPUNIT_TEST(reportingSourceIsPolledThroughItsPollEntry);
  CPPUNIT_TEST(unusableAndPartialReportsArriveAsTheyWere);
  CPPUNIT_TEST(exceptionInPollBecomesAnInternalStatus);
  CPPUNIT_TEST(abi12SourceLoadsAndIsPolledAsAReport);
  CPPUNIT_TEST_SUITE_END();

  test::FakeHttpClient http_;
  test::FakeCatalog catalog_;
  test::FixedClock clock_{1'795'000'000'000};
  plugin::PluginRegistry registry_;

  plugin::SourceInstance create(const std::string& plugin,
                                std::map<std::string, std::string> keys = {}) {
    const plugin::HostServices services{http_, catalog_, clock_};
    auto made = registry_.createSource({plugin::PluginKind::kSource, "i", plugin, std::move(keys)},
                                       services);
    CPPUNIT_ASSERT_MESSAGE(made ? "" : made.error(), made.ok());
    return std::move(made).value();
  }

  sdk::PollReport pollOnce(const plugin::SourceInstance& instance) {
    return plugin::pollSource(*instance,
                              plugin::SourceEntries{instance.fetchQuotes(), instance.pollEntry()});
  }

 public:
  void setUp() override {
    registry_ = plugin::PluginRegistry();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), registry_.scan(kCompat13Dir));
  }

  void reportingSourceIsPolledThroughItsPollEntry() {
    const plugin::PluginLibrary* plugin = registry_.find(plugin::PluginKind::kSource, "reporting");
    CPPUNIT_ASSERT(plugin != nullptr);
    CPPUNIT_ASSERT_EQUAL(std::uint32_t(3), plugin->abiMinor());
    CPPUNIT_ASSERT(plugin->pollFunction() != nullptr);
    CPPUNIT_ASSERT(plugin->fetchQuotesFunction() != nullptr);  // for a 1.2 host

    const plugin::SourceInstance instance = create("reporting", {{"mode", "good"}});
    CPPUNIT_ASSERT(instance.pollEntry() == plugin->pollFunction());
    const sdk::PollReport report = pollOnce(instance);
    CPPUNIT_ASSERT(report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), report.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::string("Ruby"), report.quotes[0].variant);  // not sliced away
    CPPUNIT_ASSERT_EQUAL(std::int64_t(250000), report.quotes[0].price.cents);
    CPPUNIT_ASSERT_EQUAL(std::string(), report.quotes[1].variant);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(5), report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(2), skippedFor(report, "no_price"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1), skippedFor(report, "locked"));
    CPPUNIT_ASSERT(report.failed_parts.empty());
  }

  void unusableAndPartialReportsArriveAsTheyWere() {
    const sdk::PollReport unusable = pollOnce(create("reporting", {{"mode", "unusable"}}));
    CPPUNIT_ASSERT(unusable.status.isOk());  // the plugin says OK; the scheduler judges
    CPPUNIT_ASSERT(unusable.quotes.empty());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4), unusable.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4), skippedFor(unusable, "no_price"));

    const sdk::PollReport partial = pollOnce(create("reporting", {{"mode", "partial"}}));
    CPPUNIT_ASSERT(partial.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), partial.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), partial.failed_parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("bids"), partial.failed_parts[0].part);
    CPPUNIT_ASSERT(partial.failed_parts[0].status.code() == sdk::Status::Code::kUnavailable);
  }

  void exceptionInPollBecomesAnInternalStatus() {
    const sdk::PollReport report = pollOnce(create("reporting", {{"mode", "throws"}}));
    CPPUNIT_ASSERT(report.status.code() == sdk::Status::Code::kInternal);
    SKINPULSE_ASSERT_CONTAINS(report.status.message(), "the feed changed shape");
    CPPUNIT_ASSERT(report.quotes.empty());
  }

  void abi12SourceLoadsAndIsPolledAsAReport() {
    const plugin::PluginLibrary* plugin = registry_.find(plugin::PluginKind::kSource, "quotes12");
    CPPUNIT_ASSERT(plugin != nullptr);
    CPPUNIT_ASSERT_EQUAL(std::uint32_t(2), plugin->abiMinor());
    CPPUNIT_ASSERT(plugin->fetchQuotesFunction() != nullptr);
    CPPUNIT_ASSERT(plugin->pollFunction() == nullptr);  // its descriptor ends before

    const plugin::SourceInstance instance = create("quotes12");
    CPPUNIT_ASSERT(instance.pollEntry() == nullptr);
    const sdk::PollReport report = pollOnce(instance);
    CPPUNIT_ASSERT(report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), report.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(2), report.rows_read);  // its quotes are its rows
    CPPUNIT_ASSERT(report.skipped.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"),
                         report.quotes[0].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4100), report.quotes[0].price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(311), report.quotes[0].listings.value_or(-1));
    CPPUNIT_ASSERT(report.quotes[0].variant.empty());
    CPPUNIT_ASSERT(report.quotes[1].kind == sdk::PriceKind::kBid);
    CPPUNIT_ASSERT_EQUAL(std::string("$0.41"), report.quotes[1].price.text);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PollReportTest);
