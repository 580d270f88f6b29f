// `[metric.NAME]` sections: the built-in metrics first and always, extra instances in
// configuration order, disabled ones left out, mistakes named.

#include "app/Settings.hpp"
#include "common/ConfigError.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

app::Settings settingsOf(const std::string& ini) {
  common::ConfigTree tree;
  tree.loadIniText(ini, "test.ini");
  return app::buildSettings(tree, app::RunLocation{true, ""},
                            {{"SESSION_SECRET", std::string(32, 's')}});
}

std::string refusal(const std::string& ini) {
  try {
    settingsOf(ini);
  } catch (const common::ConfigError& error) {
    return error.what();
  }
  return "(accepted)";
}

}  // namespace

class MetricSettingsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MetricSettingsTest);
  CPPUNIT_TEST(testBuiltInMetricsAlwaysComeFirst);
  CPPUNIT_TEST(testExtraMetricsInConfigurationOrder);
  CPPUNIT_TEST(testMistakesNameTheSection);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testBuiltInMetricsAlwaysComeFirst() {
    const app::Settings s = settingsOf("");
    std::vector<std::string> plugins;
    for (const auto& m : s.metrics) plugins.push_back(m.plugin);
    CPPUNIT_ASSERT(plugins == app::builtInMetricPlugins());
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, plugins.size());
  }

  void testExtraMetricsInConfigurationOrder() {
    const app::Settings s = settingsOf(
        "[metric.zeta]\nplugin = range\nwidth = 3\n"
        "[metric.alpha]\nplugin = other\nenabled = true\n"
        "[metric.off]\nplugin = range\nenabled = false\n");
    CPPUNIT_ASSERT_EQUAL(std::size_t{7}, s.metrics.size());
    CPPUNIT_ASSERT_EQUAL(std::string("zeta"), s.metrics[5].name);
    CPPUNIT_ASSERT_EQUAL(std::string("range"), s.metrics[5].plugin);
    CPPUNIT_ASSERT_EQUAL(std::string("3"), s.metrics[5].keys.at("width"));
    CPPUNIT_ASSERT_EQUAL(std::string("alpha"), s.metrics[6].name);
    CPPUNIT_ASSERT(s.metrics[6].keys.empty());
  }

  void testMistakesNameTheSection() {
    const auto noPlugin = refusal("[metric.x]\nenabled = true\n");
    CPPUNIT_ASSERT_MESSAGE(noPlugin, noPlugin.find("[metric.x] plugin") != std::string::npos);
    const auto builtIn = refusal("[metric.trend]\nplugin = trend\nenabled = false\n");
    CPPUNIT_ASSERT_MESSAGE(builtIn, builtIn.find("built-in") != std::string::npos);
    const auto badName = refusal("[metric.Upper]\nplugin = range\n");
    CPPUNIT_ASSERT_MESSAGE(badName, badName.find("[metric.Upper]") != std::string::npos);
    const auto badFlag = refusal("[metric.y]\nplugin = range\nenabled = maybe\n");
    CPPUNIT_ASSERT_MESSAGE(badFlag, badFlag.find("enabled") != std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MetricSettingsTest);
