// checkDescriptor on hand-made descriptors: every refusal reason, in the loader's order,
// including the ones no test plugin exercises (struct size, newer minor, unknown kind...).

#include "PluginTestSupport.hpp"
#include "plugin/DescriptorCheck.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

// Fixtures live in the global namespace: the suite name must equal the file name.
using namespace skinpulse;

namespace {

void* createNothing(sdk::Host*, char*, std::size_t) { return nullptr; }
void destroyNothing(void*) {}
void fetchNothing(void*, sdk::QuoteBatch*) {}
void pollNothing(void*, sdk::PollReport*) {}

const skinpulse_config_key kKeys[] = {{"url", "where", 1}, {"currency", "which", 0}};

skinpulse_plugin_descriptor validDescriptor() {
  return {sizeof(skinpulse_plugin_descriptor),
          SKINPULSE_SDK_ABI_MAJOR,
          SKINPULSE_SDK_ABI_MINOR,
          SKINPULSE_SDK_BUILD_SIGNATURE,
          SKINPULSE_KIND_SOURCE,
          "steam_market",
          "1.0.0",
          "test",
          kKeys,
          2,
          &createNothing,
          &destroyNothing,
          nullptr,
          nullptr};
}

std::string reasonFor(const skinpulse_plugin_descriptor& descriptor,
                      const std::string& file = "source_steam_market.so") {
  return plugin::checkDescriptor(&descriptor, file).value_or("(accepted)");
}

}  // namespace

class DescriptorCheckTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DescriptorCheckTest);
  CPPUNIT_TEST(testValidDescriptorAccepted);
  CPPUNIT_TEST(testNullDescriptor);
  CPPUNIT_TEST(testStructTooSmall);
  CPPUNIT_TEST(testAbiMajorDiffers);
  CPPUNIT_TEST(testAbiMinorNewer);
  CPPUNIT_TEST(testSignature);
  CPPUNIT_TEST(testUnknownKind);
  CPPUNIT_TEST(testKindDisagreesWithFileName);
  CPPUNIT_TEST(testInvalidName);
  CPPUNIT_TEST(testChecksRunInOrder);
  CPPUNIT_TEST(testMissingFunctions);
  CPPUNIT_TEST(testKeyTable);
  CPPUNIT_TEST(testFileNameHelpers);
  CPPUNIT_TEST(testQuoteEntryOnlyFromAbi12Sources);
  CPPUNIT_TEST(testKindKeyIsTheDaemonsSinceAbi12);
  CPPUNIT_TEST(testPollEntryOnlyFromAbi13Sources);
  CPPUNIT_TEST(testUserAgentKeyIsTheDaemons);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testValidDescriptorAccepted() {
    CPPUNIT_ASSERT_EQUAL(std::string("(accepted)"), reasonFor(validDescriptor()));
    auto bigger = validDescriptor();
    bigger.struct_size += 16;  // a later minor appended fields
    CPPUNIT_ASSERT_EQUAL(std::string("(accepted)"), reasonFor(bigger));
  }

  void testNullDescriptor() {
    SKINPULSE_ASSERT_CONTAINS(plugin::checkDescriptor(nullptr, "source_x.so").value_or(""),
                              "skinpulse_plugin_entry() returned no descriptor");
  }

  void testStructTooSmall() {
    auto d = validDescriptor();
    d.struct_size = 8;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "descriptor is 8 bytes, daemon needs at least " +
                                                std::to_string(plugin::kMinDescriptorSize));
  }

  void testAbiMajorDiffers() {
    auto d = validDescriptor();
    d.abi_major = 0;
    d.abi_minor = 9;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "SDK ABI 0.9, daemon supports 1.3");
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "major version must be equal");
  }

  void testAbiMinorNewer() {
    auto d = validDescriptor();
    d.abi_minor = SKINPULSE_SDK_ABI_MINOR + 1;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "SDK ABI 1.4, daemon supports 1.3");
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "needs a newer daemon");
  }

  void testSignature() {
    auto d = validDescriptor();
    d.build_signature = "skinpulse-sdk/1 clang cxx11abi=1 ptr=4";
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d),
                              "build signature 'skinpulse-sdk/1 clang cxx11abi=1 ptr=4' differs "
                              "from the daemon's '" SKINPULSE_SDK_BUILD_SIGNATURE "'");
    d.build_signature = nullptr;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "build signature (none) differs");
  }

  void testUnknownKind() {
    auto d = validDescriptor();
    d.kind = 9;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "unknown plugin kind 9");
  }

  void testKindDisagreesWithFileName() {
    auto d = validDescriptor();
    d.kind = SKINPULSE_KIND_METRIC;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "file name source_steam_market.so does not match");
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "declares metric 'steam_market'");
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "expected file name metric_steam_market.so");
  }

  void testInvalidName() {
    auto d = validDescriptor();
    d.name = "Steam-Market";
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d, "source_Steam-Market.so"),
                              "invalid plugin name 'Steam-Market' (allowed: [a-z0-9_]+)");
    d.name = nullptr;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d, "source_.so"), "invalid plugin name ''");
  }

  void testChecksRunInOrder() {
    auto d = validDescriptor();
    d.abi_major = 2;
    d.build_signature = "other";
    d.kind = 9;
    d.create = nullptr;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "SDK ABI 2.3");
    d.abi_major = 1;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "build signature");
    d.build_signature = SKINPULSE_SDK_BUILD_SIGNATURE;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "unknown plugin kind");
    d.kind = SKINPULSE_KIND_SOURCE;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "lacks a create or destroy function");
  }

  void testMissingFunctions() {
    auto d = validDescriptor();
    d.destroy = nullptr;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "lacks a create or destroy function");
  }

  void testQuoteEntryOnlyFromAbi12Sources() {
    auto d = validDescriptor();
    d.fetch_quotes = &fetchNothing;
    CPPUNIT_ASSERT(plugin::quoteEntry(d) == &fetchNothing);
    d.abi_minor = 1;  // a 1.1 descriptor ends before the field: never read
    CPPUNIT_ASSERT(plugin::quoteEntry(d) == nullptr);
    d.abi_minor = 2;
    d.struct_size = static_cast<std::uint32_t>(plugin::kMinDescriptorSize);
    CPPUNIT_ASSERT(plugin::quoteEntry(d) == nullptr);
    CPPUNIT_ASSERT_EQUAL(std::string("(accepted)"), reasonFor(d));  // still a valid 1.0 layout
    d.struct_size = sizeof(skinpulse_plugin_descriptor);
    d.kind = SKINPULSE_KIND_METRIC;
    CPPUNIT_ASSERT(plugin::quoteEntry(d) == nullptr);
  }

  void testPollEntryOnlyFromAbi13Sources() {
    auto d = validDescriptor();
    d.fetch_quotes = &fetchNothing;
    d.poll = &pollNothing;
    CPPUNIT_ASSERT(plugin::pollEntry(d) == &pollNothing);
    CPPUNIT_ASSERT(plugin::quoteEntry(d) == &fetchNothing);  // a 1.2 host's way in stays
    d.abi_minor = 2;  // a 1.2 descriptor ends before the field: never read
    CPPUNIT_ASSERT(plugin::pollEntry(d) == nullptr);
    CPPUNIT_ASSERT(plugin::quoteEntry(d) == &fetchNothing);
    d.abi_minor = 3;
    d.struct_size = static_cast<std::uint32_t>(plugin::kQuoteDescriptorSize);  // a 1.2 layout
    CPPUNIT_ASSERT(plugin::pollEntry(d) == nullptr);
    CPPUNIT_ASSERT_EQUAL(std::string("(accepted)"), reasonFor(d));
    d.struct_size = static_cast<std::uint32_t>(plugin::kPollDescriptorSize);
    CPPUNIT_ASSERT(plugin::pollEntry(d) == &pollNothing);
    d.kind = SKINPULSE_KIND_METRIC;
    CPPUNIT_ASSERT(plugin::pollEntry(d) == nullptr);
  }

  void testUserAgentKeyIsTheDaemons() {
    static const skinpulse_config_key withAgent[] = {{"url", "where", 1}, {"user_agent", "own", 0}};
    auto d = validDescriptor();
    d.config_keys = withAgent;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "config key 'user_agent' is reserved for the daemon");
  }

  void testKindKeyIsTheDaemonsSinceAbi12() {
    static const skinpulse_config_key withKind[] = {{"url", "where", 1}, {"kind", "own", 0}};
    auto d = validDescriptor();
    d.config_keys = withKind;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "config key 'kind' is reserved for the daemon");
    d.abi_minor = 1;  // an older plugin keeps a key of that name
    CPPUNIT_ASSERT_EQUAL(std::string("(accepted)"), reasonFor(d));
    d.abi_minor = 2;
    d.kind = SKINPULSE_KIND_METRIC;  // only sources have a price kind
    CPPUNIT_ASSERT_EQUAL(std::string("(accepted)"), reasonFor(d, "metric_steam_market.so"));
  }

  void testKeyTable() {
    auto d = validDescriptor();
    d.config_keys = nullptr;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d),
                              "config key table is missing but config_key_count is 2");
    const skinpulse_config_key reserved[] = {{"enabled", "", 0}};
    d.config_keys = reserved;
    d.config_key_count = 1;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "config key 'enabled' is reserved for the daemon");
    const skinpulse_config_key twice[] = {{"url", "", 0}, {"url", "", 1}};
    d.config_keys = twice;
    d.config_key_count = 2;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "config key 'url' is declared twice");
    const skinpulse_config_key unnamed[] = {{nullptr, "", 0}};
    d.config_keys = unnamed;
    d.config_key_count = 1;
    SKINPULSE_ASSERT_CONTAINS(reasonFor(d), "config key #0 has no name");
  }

  void testFileNameHelpers() {
    const plugin::PluginFileName split = plugin::splitPluginFileName("source_steam_market.so");
    CPPUNIT_ASSERT_EQUAL(std::string("source"), split.kind);
    CPPUNIT_ASSERT_EQUAL(std::string("steam_market"), split.name);
    CPPUNIT_ASSERT(plugin::splitPluginFileName("not_a_plugin.so").kind.empty());
    CPPUNIT_ASSERT(plugin::splitPluginFileName("source_x.so.1").kind.empty());
    CPPUNIT_ASSERT(plugin::isValidPluginName("steam_market2"));
    CPPUNIT_ASSERT(!plugin::isValidPluginName(""));
    CPPUNIT_ASSERT(!plugin::isValidPluginName("Steam"));
    CPPUNIT_ASSERT(!plugin::isValidPluginName("a-b"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DescriptorCheckTest);
