// PluginRegistry::scan over the test plugin directory: the good plugins load, every broken
// one is refused with its own reason and one warn line, and nothing stops the scan.

#include "PluginTestSupport.hpp"
#include "common/Log.hpp"
#include "plugin/PluginRegistry.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>

// Fixtures live in the global namespace: the suite name must equal the file name.
using namespace skinpulse;

namespace {

const std::filesystem::path kPluginDir = SKINPULSE_TEST_PLUGIN_DIR;

const plugin::PluginReportRow& rowFor(const plugin::PluginRegistry& registry,
                                      const std::string& file) {
  for (const plugin::PluginReportRow& row : registry.report()) {
    if (row.file == file) return row;
  }
  CPPUNIT_FAIL("no report row for " + file);
  throw std::logic_error("unreachable");
}

}  // namespace

class PluginRegistryTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PluginRegistryTest);
  CPPUNIT_TEST(testScanLoadsTheGoodPlugins);
  CPPUNIT_TEST(testWrongAbiRefused);
  CPPUNIT_TEST(testBadSignatureRefused);
  CPPUNIT_TEST(testMissingSymbolRefused);
  CPPUNIT_TEST(testMisnamedRefused);
  CPPUNIT_TEST(testNotElfRefused);
  CPPUNIT_TEST(testRowsSortedByFileName);
  CPPUNIT_TEST(testOneWarnLinePerRefusal);
  CPPUNIT_TEST(testDuplicateRefused);
  CPPUNIT_TEST(testMissingDirectoryIsNotFatal);
  CPPUNIT_TEST(testTruncatedElfRefused);
  CPPUNIT_TEST(testConfigKeysExposed);
  CPPUNIT_TEST(testValidate);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    registry_ = std::make_unique<plugin::PluginRegistry>();
    accepted_ = registry_->scan(kPluginDir);
  }
  void tearDown() override { registry_.reset(); }

  void testScanLoadsTheGoodPlugins() {
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, accepted_);
    std::set<std::string> loaded;
    for (const plugin::PluginLibrary& plugin : registry_->plugins())
      loaded.insert(plugin.fileName());
    const std::set<std::string> expected = {"identity_good.so", "metric_good.so", "metric_range.so",
                                            "source_good.so", "source_throws.so"};
    CPPUNIT_ASSERT(expected == loaded);

    const plugin::PluginReportRow& row = rowFor(*registry_, "source_good.so");
    CPPUNIT_ASSERT_EQUAL(std::string("loaded"), row.status);
    CPPUNIT_ASSERT_EQUAL(std::string("source"), row.kind);
    CPPUNIT_ASSERT_EQUAL(std::string("good"), row.name);
    CPPUNIT_ASSERT_EQUAL(std::string("1.2.3"), row.version);
    CPPUNIT_ASSERT(row.reason.empty());

    const plugin::PluginLibrary* metric = registry_->find(plugin::PluginKind::kMetric, "good");
    CPPUNIT_ASSERT(metric != nullptr);
    CPPUNIT_ASSERT_EQUAL(std::string("0.1.0"), metric->version());
    CPPUNIT_ASSERT(registry_->find(plugin::PluginKind::kIdentity, "good") != nullptr);
    CPPUNIT_ASSERT(registry_->find(plugin::PluginKind::kSource, "renamed") == nullptr);
  }

  void testWrongAbiRefused() {
    const plugin::PluginReportRow& row = rowFor(*registry_, "source_wrongabi.so");
    CPPUNIT_ASSERT_EQUAL(std::string("refused"), row.status);
    SKINPULSE_ASSERT_CONTAINS(row.reason, "SDK ABI 2.3, daemon supports 1.3");
    SKINPULSE_ASSERT_CONTAINS(
        plugin::refusalMessage(row),
        "plugin source_wrongabi.so refused: SDK ABI 2.3, daemon supports 1.3");
    CPPUNIT_ASSERT_EQUAL(std::string("source"), row.kind);
    CPPUNIT_ASSERT_EQUAL(std::string("wrongabi"), row.name);
  }

  void testBadSignatureRefused() {
    const plugin::PluginReportRow& row = rowFor(*registry_, "source_badsig.so");
    CPPUNIT_ASSERT_EQUAL(std::string("refused"), row.status);
    SKINPULSE_ASSERT_CONTAINS(row.reason,
                              "build signature 'skinpulse-sdk/1 gcc cxx11abi=0 ptr=8' differs");
    SKINPULSE_ASSERT_CONTAINS(row.reason, SKINPULSE_SDK_BUILD_SIGNATURE);
  }

  void testMissingSymbolRefused() {
    const plugin::PluginReportRow& row = rowFor(*registry_, "source_nosymbol.so");
    CPPUNIT_ASSERT_EQUAL(std::string("refused"), row.status);
    SKINPULSE_ASSERT_CONTAINS(row.reason, "no entry symbol skinpulse_plugin_entry");
  }

  void testMisnamedRefused() {
    const plugin::PluginReportRow& row = rowFor(*registry_, "source_misnamed.so");
    CPPUNIT_ASSERT_EQUAL(std::string("refused"), row.status);
    SKINPULSE_ASSERT_CONTAINS(row.reason, "file name source_misnamed.so does not match");
    SKINPULSE_ASSERT_CONTAINS(row.reason, "declares source 'renamed'");
    SKINPULSE_ASSERT_CONTAINS(row.reason, "expected file name source_renamed.so");
  }

  void testNotElfRefused() {
    const plugin::PluginReportRow& row = rowFor(*registry_, "not_a_plugin.so");
    CPPUNIT_ASSERT_EQUAL(std::string("refused"), row.status);
    SKINPULSE_ASSERT_CONTAINS(row.reason, "not an ELF shared object");
    CPPUNIT_ASSERT(row.kind.empty());
  }

  void testRowsSortedByFileName() {
    const auto& rows = registry_->report();
    CPPUNIT_ASSERT_EQUAL(std::size_t{10}, rows.size());
    for (std::size_t i = 1; i < rows.size(); ++i) {
      CPPUNIT_ASSERT_MESSAGE(rows[i - 1].file + " before " + rows[i].file,
                             rows[i - 1].file < rows[i].file);
    }
  }

  void testOneWarnLinePerRefusal() {
    plugin::PluginRegistry registry;
    test::LogCapture capture(log::main());
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, registry.scan(kPluginDir));
    CPPUNIT_ASSERT_EQUAL(5, capture.countLines("warning|"));
    for (const char* file : {"source_wrongabi.so", "source_badsig.so", "source_nosymbol.so",
                             "source_misnamed.so", "not_a_plugin.so"}) {
      CPPUNIT_ASSERT_EQUAL(
          1, capture.countLines(std::string("warning|plugin ") + file + " refused: "));
    }
    CPPUNIT_ASSERT_EQUAL(
        1, capture.countLines("warning|plugin source_wrongabi.so refused: SDK ABI 2.3, daemon "
                              "supports 1.3"));
    CPPUNIT_ASSERT_EQUAL(5, capture.countLines("info|plugin "));
  }

  void testDuplicateRefused() {
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, registry_->scan(kPluginDir));
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, registry_->plugins().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{20}, registry_->report().size());
    const plugin::PluginReportRow& second = registry_->report().back();  // second scan's last file
    CPPUNIT_ASSERT_EQUAL(std::string("source_wrongabi.so"), second.file);
    SKINPULSE_ASSERT_CONTAINS(second.reason, "SDK ABI 2.3");
    int duplicates = 0;
    for (std::size_t i = 10; i < registry_->report().size(); ++i) {
      const plugin::PluginReportRow& row = registry_->report()[i];
      CPPUNIT_ASSERT_EQUAL(std::string("refused"), row.status);
      if (row.reason.find("duplicate") != std::string::npos) ++duplicates;
      if (row.file == "source_good.so") {
        SKINPULSE_ASSERT_CONTAINS(row.reason,
                                  "duplicate source plugin 'good', already loaded from");
        SKINPULSE_ASSERT_CONTAINS(row.reason, "source_good.so");
      }
    }
    CPPUNIT_ASSERT_EQUAL(5, duplicates);
  }

  void testMissingDirectoryIsNotFatal() {
    plugin::PluginRegistry registry;
    test::LogCapture capture(log::main());
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, registry.scan(kPluginDir / "does-not-exist"));
    CPPUNIT_ASSERT_EQUAL(1, capture.countLines("warning|plugin directory "));
    CPPUNIT_ASSERT(registry.report().empty());
    CPPUNIT_ASSERT(registry.plugins().empty());
  }

  void testTruncatedElfRefused() {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("skinpulse-plugin-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    {
      std::ofstream out(dir / "source_broken.so", std::ios::binary);
      out << "\x7f"
             "ELF and then nothing a dynamic linker could use";
    }
    plugin::PluginRegistry registry;
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, registry.scan(dir));
    std::filesystem::remove_all(dir);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, registry.report().size());
    const plugin::PluginReportRow& row = registry.report().front();
    CPPUNIT_ASSERT_EQUAL(std::string("refused"), row.status);
    SKINPULSE_ASSERT_CONTAINS(row.reason, "cannot be loaded: ");
    SKINPULSE_ASSERT_CONTAINS(row.reason, "source_broken.so");  // dlerror() names the file
  }

  void testConfigKeysExposed() {
    const auto* keys = registry_->configKeys(plugin::PluginKind::kSource, "good");
    CPPUNIT_ASSERT(keys != nullptr);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, keys->size());
    CPPUNIT_ASSERT_EQUAL(std::string("url"), (*keys)[0].name);
    CPPUNIT_ASSERT((*keys)[0].required);
    CPPUNIT_ASSERT_EQUAL(std::string("currency"), (*keys)[1].name);
    CPPUNIT_ASSERT(!(*keys)[1].required);
    CPPUNIT_ASSERT(!(*keys)[1].description.empty());
    CPPUNIT_ASSERT(registry_->configKeys(plugin::PluginKind::kMetric, "good")->empty());
    CPPUNIT_ASSERT(registry_->configKeys(plugin::PluginKind::kSource, "wrongabi") == nullptr);
  }

  void testValidate() {
    plugin::PluginInstanceSpec spec{
        plugin::PluginKind::kSource, "steam", "good", {{"url", "https://x.test/"}}};
    CPPUNIT_ASSERT(!registry_->validate(spec).has_value());
    spec.keys["colour"] = "red";
    SKINPULSE_ASSERT_CONTAINS(registry_->validate(spec).value_or(""), "unknown key 'colour'");
    spec.plugin_name = "wrongabi";
    SKINPULSE_ASSERT_CONTAINS(registry_->validate(spec).value_or(""), "was refused: SDK ABI 2.3");
  }

 private:
  std::unique_ptr<plugin::PluginRegistry> registry_;
  std::size_t accepted_ = 0;
};

CPPUNIT_TEST_SUITE_REGISTRATION(PluginRegistryTest);
