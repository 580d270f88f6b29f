#pragma once

// Loads the real metric plugins from the build tree (and, on request, a test plugin),
// the way the daemon does: registry scan, one instance each.

#include "catalog/Catalog.hpp"
#include "metrics/MetricSet.hpp"
#include "net/PocoHttpClient.hpp"
#include "plugin/PluginRegistry.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <string>
#include <vector>

namespace skinpulse::test {

class MetricPlugins {
 public:
  /// The five built-in metrics, plus test plugins named in `extra` (file metric_<x>.so
  /// in the test plugin directory).
  explicit MetricPlugins(const std::vector<std::string>& extra = {}) {
    registry_.scan(SKINPULSE_BUILT_PLUGIN_DIR);
    std::vector<std::string> plugins = {"stddev", "percent_change", "bollinger",
                                        "coefficient_of_variation", "trend"};
    for (const auto& name : extra) {
      CPPUNIT_ASSERT(
          registry_.load(std::string(SKINPULSE_TEST_PLUGIN_DIR) + "/metric_" + name + ".so"));
      plugins.push_back(name);
    }
    for (const auto& plugin : plugins) {
      auto made = registry_.createMetric(
          plugin::PluginInstanceSpec{plugin::PluginKind::kMetric, plugin, plugin, {}}, services_);
      CPPUNIT_ASSERT_MESSAGE(made ? plugin : made.error(), static_cast<bool>(made));
      instances_.push_back(std::move(made).value());
    }
  }

  metrics::MetricSet set() const {
    std::vector<metrics::MetricSet::Entry> entries;
    for (const auto& instance : instances_)
      entries.push_back({instance.instanceName(), instance.get()});
    return metrics::MetricSet(std::move(entries));
  }

 private:
  net::PocoHttpClient http_;
  catalog::Catalog catalog_;
  plugin::HostServices services_{http_, catalog_};
  plugin::PluginRegistry registry_;
  std::vector<plugin::MetricInstance> instances_;
};

}  // namespace skinpulse::test
