// SDK ABI 1.2 compatibility (docs/adr/0011-sdk-abi-1-2.md), end to end through real shared
// objects: a source built against the frozen ABI 1.1 headers (tests/plugins/abi11) loads,
// its observations are adapted, normalised with the instance's kind and stored; an ABI 1.2
// QuoteSource is called through the descriptor's fetch_quotes entry and its kinds, listing
// counts and currencies reach the store (non-USD: rejected as no_rate).

#include "catalog/Catalog.hpp"
#include "ingest/IngestCycle.hpp"
#include "mocks/MockHost.hpp"
#include "plugin/PluginRegistry.hpp"
#include "plugin/SourceFetch.hpp"
#include "prices/LatestPrices.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>
#include <memory>
#include <string>

using namespace skinpulse;

namespace {

const std::filesystem::path kCompatDir =
    std::filesystem::path(SKINPULSE_TEST_PLUGIN_DIR) / "compat";
constexpr std::int64_t kNow = 1'795'000'000;

class Clock final : public sdk::Clock {
 public:
  std::int64_t nowUnixMillis() const override { return kNow * 1000; }
};

}  // namespace

class SdkCompatibilityTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SdkCompatibilityTest);
  CPPUNIT_TEST(abi11SourceLoadsAndItsObservationsAreStored);
  CPPUNIT_TEST(abi12SourceStoresKindAndListings);
  CPPUNIT_TEST_SUITE_END();

  test::MockHttp http_;
  test::MockCatalog plugin_catalog_;
  Clock clock_;
  std::unique_ptr<store::Database> db_;
  std::unique_ptr<catalog::Catalog> catalog_;
  prices::LatestPrices latest_;
  plugin::PluginRegistry registry_;

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql");
    std::vector<store::CatalogEntry> entries(2);
    entries[0].market_hash_name = "AK-47 | Redline (Field-Tested)";
    entries[1].market_hash_name = "Recoil Case";
    db_->catalog().seed(entries, kNow - 1000);
    catalog_ = std::make_unique<catalog::Catalog>();
    catalog_->reset(db_->catalog().allItems());
    registry_ = plugin::PluginRegistry();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), registry_.scan(kCompatDir));
  }

  void tearDown() override { db_.reset(); }

  // One scheduler-like poll of instance `name` of `plugin`, stored through IngestCycle.
  ingest::CycleOutcome poll(const std::string& plugin, sdk::PriceKind kind,
                            std::map<std::string, std::string> keys = {}) {
    const plugin::HostServices services{http_, plugin_catalog_, clock_};
    auto made = registry_.createSource(
        {plugin::PluginKind::kSource, plugin, plugin, std::move(keys)}, services);
    CPPUNIT_ASSERT_MESSAGE(made.error(), made.ok());
    plugin::SourceInstance instance = std::move(made).value();
    sdk::QuoteBatch batch = plugin::fetchQuotes(*instance, instance.fetchQuotes());
    CPPUNIT_ASSERT(batch.status.isOk());
    ingest::SourceBatch source{plugin, kNow, {}};
    for (auto& quote : batch.quotes)
      source.quotes.push_back(sdk::VariantQuote{std::move(quote), {}});
    source.kind = kind;
    ingest::IngestCycle cycle(*db_, *catalog_, latest_, false);
    return cycle.run({source});
  }

  void abi11SourceLoadsAndItsObservationsAreStored() {
    const plugin::PluginLibrary* legacy = registry_.find(plugin::PluginKind::kSource, "legacy");
    CPPUNIT_ASSERT(legacy != nullptr);
    CPPUNIT_ASSERT_EQUAL(std::uint32_t(1), legacy->abiMinor());
    CPPUNIT_ASSERT(legacy->fetchQuotesFunction() == nullptr);  // its descriptor ends before

    // `kind` is the daemon's key: not passed to (nor refused by) a plugin that never heard of it.
    const ingest::CycleOutcome outcome = poll("legacy", sdk::PriceKind::kBid, {{"kind", "bid"}});
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), outcome.sources.at("legacy").accepted);
    const auto points = db_->prices().pointsSince(0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), points.size());
    const store::PricePoint& ak = points[0].price == 4210 ? points[0] : points[1];
    const store::PricePoint& recoil = points[0].price == 4210 ? points[1] : points[0];
    CPPUNIT_ASSERT_EQUAL(std::int64_t(17), ak.volume);
    CPPUNIT_ASSERT_EQUAL(kNow - 60, ak.time);
    CPPUNIT_ASSERT(ak.kind == sdk::PriceKind::kBid);  // the instance's kind
    CPPUNIT_ASSERT(!ak.listings);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(47), recoil.price);  // "$0.47", name trimmed
    CPPUNIT_ASSERT_EQUAL(kNow, recoil.time);               // no own time: the poll time
  }

  void abi12SourceStoresKindAndListings() {
    const plugin::PluginLibrary* quotes = registry_.find(plugin::PluginKind::kSource, "quotes");
    CPPUNIT_ASSERT(quotes != nullptr);
    // Built against the current headers: a QuoteSource of the current minor (the frozen
    // ABI 1.2 build is tests/plugins/abi12, tests/unit/plugin/PollReportTest.cpp).
    CPPUNIT_ASSERT_EQUAL(std::uint32_t(SKINPULSE_SDK_ABI_MINOR), quotes->abiMinor());
    CPPUNIT_ASSERT(quotes->fetchQuotesFunction() != nullptr);
    CPPUNIT_ASSERT(quotes->pollFunction() == nullptr);  // not a ReportingSource

    const ingest::CycleOutcome outcome = poll("quotes", sdk::PriceKind::kAsk);
    const ingest::SourceOutcome& source = outcome.sources.at("quotes");
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), source.received);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), source.accepted);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), source.rejected.at("no_rate"));  // EUR, no rates yet
    const auto points = db_->prices().pointsSince(0);                     // by item, source, time
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), points.size());
    CPPUNIT_ASSERT(points[0].kind == sdk::PriceKind::kAsk);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(311), points[0].listings.value_or(-1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(0), points[0].volume);
    CPPUNIT_ASSERT(points[1].kind == sdk::PriceKind::kBid);
    CPPUNIT_ASSERT(!points[1].listings);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4), points[1].volume);
    // The ask instance's bid is a series of its own (one source, one kind).
    CPPUNIT_ASSERT_EQUAL(std::string("quotes"), points[0].source);
    CPPUNIT_ASSERT_EQUAL(std::string("quotes-bid"), points[1].source);
    // The latest-price cache and its reload from the store carry them too.
    const auto latest = db_->prices().latestPerItemSource();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), latest.size());
    CPPUNIT_ASSERT(latest[1].newest.kind == sdk::PriceKind::kBid);
    CPPUNIT_ASSERT(latest[1].newest == points[1]);
    // The quote's https image filled the item, which had none (the http one was ignored).
    CPPUNIT_ASSERT_EQUAL(
        std::string("https://community.akamai.steamstatic.com/economy/image/redline"),
        db_->catalog().findById(points[0].item_id)->image_url);
    CPPUNIT_ASSERT_EQUAL(
        db_->catalog().findById(points[0].item_id)->image_url,
        catalog_->snapshot()->findByName("AK-47 | Redline (Field-Tested)")->record.image_url);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SdkCompatibilityTest);
