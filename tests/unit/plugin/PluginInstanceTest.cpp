// Instances created through PluginRegistry from the test plugins: configuration reaches the
// plugin, bad keys are refused before create(), a throwing constructor is reported, and an
// instance keeps its library loaded after the registry is gone.

#include "PluginTestSupport.hpp"
#include "common/Log.hpp"
#include "plugin/PluginRegistry.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <dlfcn.h>
#include <filesystem>
#include <memory>
#include <string>

// Fixtures live in the global namespace: the suite name must equal the file name.
using namespace skinpulse;

namespace {

const std::filesystem::path kPluginDir = SKINPULSE_TEST_PLUGIN_DIR;
constexpr std::int64_t kNowMillis = 1'700'000'000'123;

// Whether the dynamic linker still has `file` mapped (RTLD_NOLOAD never loads it).
bool isMapped(const std::filesystem::path& file) {
  void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  ::dlclose(handle);
  return true;
}

plugin::PluginInstanceSpec goodSourceSpec() {
  return {plugin::PluginKind::kSource,
          "market-a",
          "good",
          {{"url", "https://prices.test/list"},
           {"currency", "EUR"},
           {"interval_seconds", "60"},
           {"enabled", "true"},
           {"required", "false"}}};
}

}  // namespace

class PluginInstanceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PluginInstanceTest);
  CPPUNIT_TEST(testSourceFetchCarriesItsConfig);
  CPPUNIT_TEST(testPluginLogsWithInstancePrefix);
  CPPUNIT_TEST(testPluginNameFromPluginKey);
  CPPUNIT_TEST(testUnknownKeyRefusedBeforeCreate);
  CPPUNIT_TEST(testMissingRequiredKeyRefusedBeforeCreate);
  CPPUNIT_TEST(testThrowingConstructorReported);
  CPPUNIT_TEST(testRefusedPluginExplained);
  CPPUNIT_TEST(testUnknownPlugin);
  CPPUNIT_TEST(testKindMismatch);
  CPPUNIT_TEST(testInstanceOutlivesRegistry);
  CPPUNIT_TEST(testMoveAssignment);
  CPPUNIT_TEST(testMetricInstance);
  CPPUNIT_TEST(testIdentityInstance);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    registry_ = std::make_unique<plugin::PluginRegistry>();
    registry_->scan(kPluginDir);
  }
  void tearDown() override { registry_.reset(); }

  void testSourceFetchCarriesItsConfig() {
    auto made = registry_->createSource(goodSourceSpec(), services_);
    CPPUNIT_ASSERT_MESSAGE(made.error(), made.ok());
    plugin::SourceInstance& source = made.value();
    CPPUNIT_ASSERT_EQUAL(std::string("market-a"), source.instanceName());
    CPPUNIT_ASSERT_EQUAL(std::string("good"), source.pluginName());

    const sdk::FetchResult result = source->fetch();
    CPPUNIT_ASSERT_MESSAGE(result.status.message(), result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.observations.size());
    const sdk::Observation& observation = result.observations.front();
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"),
                         observation.market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::string("12.34 EUR"), observation.price.text);
    CPPUNIT_ASSERT_EQUAL(kNowMillis / 1000, observation.observed_at.value_or(0));

    const auto requests = http_.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, requests.size());
    CPPUNIT_ASSERT_EQUAL(std::string("https://prices.test/list"), requests.front().url);

    // Reserved keys stay with the host.
    const sdk::Config& config = source.host()->config();
    CPPUNIT_ASSERT(config.keys() == (std::vector<std::string>{"currency", "url"}));
    CPPUNIT_ASSERT(!config.get("interval_seconds").has_value());

    http_.setStatus(503);
    const sdk::FetchResult failed = source->fetch();
    CPPUNIT_ASSERT(failed.status.code() == sdk::Status::Code::kUnavailable);
  }

  void testPluginLogsWithInstancePrefix() {
    auto made = registry_->createSource(goodSourceSpec(), services_);
    CPPUNIT_ASSERT_MESSAGE(made.error(), made.ok());
    test::LogCapture capture(log::plugin());
    (void)made.value()->fetch();
    CPPUNIT_ASSERT_EQUAL(
        1, capture.countLines("info|source.market-a: fetching https://prices.test/list"));
  }

  void testPluginNameFromPluginKey() {
    plugin::PluginInstanceSpec spec = goodSourceSpec();
    spec.instance_name = "steam";
    spec.plugin_name.clear();
    spec.keys["plugin"] = "good";
    auto made = registry_->createSource(spec, services_);
    CPPUNIT_ASSERT_MESSAGE(made.error(), made.ok());
    CPPUNIT_ASSERT_EQUAL(std::string("good"), made.value().pluginName());
  }

  void testUnknownKeyRefusedBeforeCreate() {
    // source_throws would answer "boom" if create() were reached.
    plugin::PluginInstanceSpec spec{
        plugin::PluginKind::kSource, "noisy", "throws", {{"colour", "red"}}};
    auto made = registry_->createSource(spec, services_);
    CPPUNIT_ASSERT(!made.ok());
    SKINPULSE_ASSERT_CONTAINS(made.error(), "source instance 'noisy'");
    SKINPULSE_ASSERT_CONTAINS(made.error(), "unknown key 'colour'");
    SKINPULSE_ASSERT_NOT_CONTAINS(made.error(), "boom");

    plugin::PluginInstanceSpec good = goodSourceSpec();
    good.keys["urll"] = "https://typo.test/";
    auto typo = registry_->createSource(good, services_);
    CPPUNIT_ASSERT(!typo.ok());
    SKINPULSE_ASSERT_CONTAINS(typo.error(), "unknown key 'urll' (accepted: url, currency)");
    CPPUNIT_ASSERT(http_.requests().empty());
  }

  void testMissingRequiredKeyRefusedBeforeCreate() {
    // GoodSource's constructor would throw "url must not be empty" if create() were reached.
    plugin::PluginInstanceSpec spec{
        plugin::PluginKind::kSource, "market-b", "good", {{"currency", "EUR"}}};
    auto made = registry_->createSource(spec, services_);
    CPPUNIT_ASSERT(!made.ok());
    SKINPULSE_ASSERT_CONTAINS(made.error(), "source instance 'market-b'");
    SKINPULSE_ASSERT_CONTAINS(made.error(), "missing required key 'url'");
    SKINPULSE_ASSERT_NOT_CONTAINS(made.error(), "must not be empty");

    spec.keys["url"] = "";
    auto empty = registry_->createSource(spec, services_);
    SKINPULSE_ASSERT_CONTAINS(empty.error(), "required key 'url' is empty");
  }

  void testThrowingConstructorReported() {
    plugin::PluginInstanceSpec spec{
        plugin::PluginKind::kSource, "noisy", "throws", {{"timeout_seconds", "5"}}};
    auto made = registry_->createSource(spec, services_);
    CPPUNIT_ASSERT(!made.ok());
    SKINPULSE_ASSERT_CONTAINS(made.error(), "source instance 'noisy'");
    SKINPULSE_ASSERT_CONTAINS(made.error(), "create failed: boom: bad upstream config");
    CPPUNIT_ASSERT_THROW((void)made.value(), plugin::PluginError);
    try {
      (void)made.value();
    } catch (const plugin::PluginError& e) {
      SKINPULSE_ASSERT_CONTAINS(e.what(), "boom: bad upstream config");
    }
    // The registry is still usable afterwards.
    CPPUNIT_ASSERT(registry_->createSource(goodSourceSpec(), services_).ok());
  }

  void testRefusedPluginExplained() {
    plugin::PluginInstanceSpec spec{plugin::PluginKind::kSource, "future", "wrongabi", {}};
    auto made = registry_->createSource(spec, services_);
    SKINPULSE_ASSERT_CONTAINS(made.error(),
                              "source plugin 'wrongabi' was refused: SDK ABI 2.3, daemon supports "
                              "1.3");
  }

  void testUnknownPlugin() {
    plugin::PluginInstanceSpec spec{plugin::PluginKind::kSource, "steam", "nope", {}};
    auto made = registry_->createSource(spec, services_);
    SKINPULSE_ASSERT_CONTAINS(made.error(), "no source plugin named 'nope' is loaded");
  }

  void testKindMismatch() {
    plugin::PluginInstanceSpec spec{plugin::PluginKind::kMetric, "range", "good", {}};
    auto made = registry_->createSource(spec, services_);
    SKINPULSE_ASSERT_CONTAINS(made.error(),
                              "metric instance 'range' is configured as a metric but was "
                              "requested as a source");
  }

  void testInstanceOutlivesRegistry() {
    const std::filesystem::path file = kPluginDir / "source_good.so";
    {
      auto made = registry_->createSource(goodSourceSpec(), services_);
      CPPUNIT_ASSERT_MESSAGE(made.error(), made.ok());
      plugin::SourceInstance source = std::move(made).value();
      registry_.reset();
      CPPUNIT_ASSERT(isMapped(file));
      const sdk::FetchResult result = source->fetch();
      CPPUNIT_ASSERT(result.status.isOk());
      CPPUNIT_ASSERT_EQUAL(std::string("12.34 EUR"), result.observations.at(0).price.text);
    }
    CPPUNIT_ASSERT_MESSAGE("the last instance released the library", !isMapped(file));
  }

  void testMoveAssignment() {
    auto first = registry_->createSource(goodSourceSpec(), services_);
    plugin::PluginInstanceSpec otherSpec = goodSourceSpec();
    otherSpec.instance_name = "market-c";
    otherSpec.keys["currency"] = "GBP";
    auto second = registry_->createSource(otherSpec, services_);
    CPPUNIT_ASSERT(first.ok() && second.ok());
    plugin::SourceInstance a = std::move(first).value();
    plugin::SourceInstance b = std::move(second).value();
    a = std::move(b);  // destroys market-a's object, then its host, then takes market-c
    CPPUNIT_ASSERT_EQUAL(std::string("market-c"), a.instanceName());
    CPPUNIT_ASSERT_EQUAL(std::string("12.34 GBP"), a->fetch().observations.at(0).price.text);
    a.reset();
    CPPUNIT_ASSERT(!a);
    CPPUNIT_ASSERT(a.host() == nullptr);
  }

  void testMetricInstance() {
    plugin::PluginInstanceSpec spec{
        plugin::PluginKind::kMetric, "range", "good", {{"enabled", "true"}}};
    auto made = registry_->createMetric(spec, services_);
    CPPUNIT_ASSERT_MESSAGE(made.error(), made.ok());
    sdk::WindowStats stats;
    stats.n = 3;
    stats.min_price = 120;
    stats.max_price = 175;
    const sdk::MetricValues values = made.value()->compute(stats);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, values.size());
    CPPUNIT_ASSERT_EQUAL(std::string("range"), values[0].first);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(55.0, values[0].second, 1e-9);
  }

  void testIdentityInstance() {
    plugin::PluginInstanceSpec spec{
        plugin::PluginKind::kIdentity, "idp-a", "good", {{"client_id", "abc"}}};
    auto made = registry_->createIdentity(spec, services_);
    CPPUNIT_ASSERT_MESSAGE(made.error(), made.ok());
    plugin::IdentityInstance& idp = made.value();
    CPPUNIT_ASSERT_EQUAL(std::string("oauth2"), idp->protocol());
    const sdk::LoginContext context{"https://app.test/callback", "https://app.test"};
    const sdk::AuthorizationStart start = idp->begin(context);
    CPPUNIT_ASSERT(start.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, start.flow.size());
    const std::string state = start.flow[0].second;
    CPPUNIT_ASSERT_EQUAL(std::size_t{22}, state.size());
    const sdk::VerifiedIdentity ok = idp->complete(context, {{"state", state}}, "", start.flow);
    CPPUNIT_ASSERT_EQUAL(std::string("user-1"), ok.subject);
    const sdk::VerifiedIdentity bad = idp->complete(context, {{"state", "x"}}, "", start.flow);
    CPPUNIT_ASSERT_EQUAL(std::string("state_mismatch"), bad.error_code);
  }

 private:
  test::FakeHttpClient http_;
  test::FakeCatalog catalog_;
  test::FixedClock clock_{kNowMillis};
  plugin::HostServices services_{http_, catalog_, clock_};
  std::unique_ptr<plugin::PluginRegistry> registry_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(PluginInstanceTest);
