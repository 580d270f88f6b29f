// The `rates` plugin kind of SDK ABI 1.2 (docs/adr/0016-currency-rates.md): the bundled
// rates_fixed.so and rates_ecb.so load through the registry and create instances; a
// descriptor that declares kind rates with an older minor is refused; the older kinds
// are untouched (their ABI 1.1 compatibility: tests/unit/ingest/SdkCompatibilityTest.cpp).

#include "mocks/MockHost.hpp"
#include "plugin/DescriptorCheck.hpp"
#include "plugin/PluginRegistry.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>

using namespace skinpulse;

namespace {

void* create(sdk::Host*, char*, std::size_t) { return nullptr; }
void destroy(void*) {}

skinpulse_plugin_descriptor descriptor(std::uint32_t minor) {
  return {sizeof(skinpulse_plugin_descriptor),
          SKINPULSE_SDK_ABI_MAJOR,
          minor,
          SKINPULSE_SDK_BUILD_SIGNATURE,
          SKINPULSE_KIND_RATES,
          "ecb",
          "1.0.0",
          "test",
          nullptr,
          0,
          &create,
          &destroy,
          nullptr,
          nullptr};
}

}  // namespace

class RatesPluginKindTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RatesPluginKindTest);
  CPPUNIT_TEST(kindIsNamedRates);
  CPPUNIT_TEST(olderMinorMayNotDeclareIt);
  CPPUNIT_TEST(bundledPluginsLoadAndCreate);
  CPPUNIT_TEST_SUITE_END();

 public:
  void kindIsNamedRates() {
    CPPUNIT_ASSERT_EQUAL(std::string("rates"),
                         std::string(plugin::kindName(plugin::PluginKind::kRates)));
    CPPUNIT_ASSERT(plugin::parseKind("rates") == plugin::PluginKind::kRates);
    CPPUNIT_ASSERT(plugin::kindFromDescriptor(4) == plugin::PluginKind::kRates);
    CPPUNIT_ASSERT(plugin::kKindOf<sdk::RateSource> == plugin::PluginKind::kRates);
    CPPUNIT_ASSERT_EQUAL(std::string("rates"), plugin::splitPluginFileName("rates_ecb.so").kind);
  }

  void olderMinorMayNotDeclareIt() {
    const auto current = descriptor(2);
    CPPUNIT_ASSERT(!plugin::checkDescriptor(&current, "rates_ecb.so"));
    const auto old = descriptor(1);
    const auto refused = plugin::checkDescriptor(&old, "rates_ecb.so");
    CPPUNIT_ASSERT(refused);
    CPPUNIT_ASSERT(refused->find("needs SDK ABI 1.2") != std::string::npos);
  }

  void bundledPluginsLoadAndCreate() {
    const std::filesystem::path dir(SKINPULSE_BUNDLED_PLUGIN_DIR);
    plugin::PluginRegistry registry;
    CPPUNIT_ASSERT(registry.load(dir / "rates_fixed.so"));
    CPPUNIT_ASSERT(registry.load(dir / "rates_ecb.so"));
    test::MockHttp http;
    test::MockCatalog catalog;
    const plugin::HostServices services{http, catalog};
    auto made = registry.createRates(
        {plugin::PluginKind::kRates, "fixed", "fixed", {{"rates", "EUR:0.95"}}}, services);
    CPPUNIT_ASSERT_MESSAGE(made.error(), made.ok());
    const auto batch = made.value()->fetchRates();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.rates.size());
    auto bad = registry.createRates(
        {plugin::PluginKind::kRates, "fixed", "fixed", {{"rates", "EUR=1"}}}, services);
    CPPUNIT_ASSERT(!bad.ok());
    CPPUNIT_ASSERT(bad.error().find("EUR=1") != std::string::npos);
    auto unknown = registry.createRates(
        {plugin::PluginKind::kRates, "ecb", "ecb", {{"token", "x"}}}, services);
    CPPUNIT_ASSERT(!unknown.ok());  // undeclared key
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RatesPluginKindTest);
