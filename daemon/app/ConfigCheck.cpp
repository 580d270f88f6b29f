#include "app/ConfigCheck.hpp"

#include "app/ConfigLoader.hpp"
#include "app/ConfigSchema.hpp"
#include "app/PluginSetup.hpp"
#include "catalog/Catalog.hpp"
#include "common/ConfigError.hpp"
#include "net/PocoHttpClient.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace skinpulse::app {
namespace {

// A malformed section header is replaced by this one so the keys below it stay out of
// the section above; the section is dropped before validation.
constexpr const char* kIgnoredSection = "skinpulse-check-ignored";
constexpr int kMaxRounds = 1000;  // every round removes a value: a bound, never reached

common::ConfigTree copyWithout(
    const common::ConfigTree& tree,
    const std::function<bool(const std::string&, const std::string&)>& drop) {
  common::ConfigTree copy;
  for (const auto& section : tree.sections()) {
    for (const auto& key : tree.keysOf(section)) {
      if (drop(section, key)) continue;
      const auto value = tree.find(section + "." + key);
      copy.set(section + "." + key, value->text, value->origin);
    }
  }
  return copy;
}

// "file.ini:12" → 12 (0 when the place names no line).
std::size_t lineOf(const std::string& where) {
  const auto colon = where.rfind(':');
  if (colon == std::string::npos) return 0;
  try {
    return std::stoul(where.substr(colon + 1));
  } catch (const std::exception&) {
    return 0;
  }
}

// Loads one file into `tree`, recording each malformed line and neutralising it.
void loadFileCollecting(const std::string& path, common::ConfigTree& tree,
                        std::vector<std::string>& problems) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problems.push_back(common::ConfigError(path, "cannot read configuration file").what());
    return;
  }
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  for (int round = 0; round < kMaxRounds; ++round) {
    std::string text;
    for (const auto& line : lines) text += line + "\n";
    try {
      tree.loadIniText(text, path);
      return;
    } catch (const common::ConfigError& error) {
      problems.push_back(error.what());
      const std::size_t number = lineOf(error.key());
      if (number == 0 || number > lines.size()) return;
      std::string& bad = lines[number - 1];
      const auto first = bad.find_first_not_of(" \t");
      const bool header = first != std::string::npos && bad[first] == '[';
      bad = header ? std::string("[") + kIgnoredSection + "]" : std::string();
    }
  }
}

const common::OptionSpec* specOf(const std::string& key) {
  for (const auto& spec : daemonConfigKeys()) {
    if (spec.key == key) return &spec;
  }
  return nullptr;
}

// Sets aside the value an error blamed. False when nothing can be set aside.
bool setAside(const std::string& setting, common::ConfigTree& tree,
              std::map<std::string, std::string>& environment) {
  if (setting.empty()) return false;
  if (setting.front() == '[') {
    const std::string section = setting.substr(1, setting.size() - 2);
    tree =
        copyWithout(tree, [&](const std::string& s, const std::string&) { return s == section; });
    return true;
  }
  if (setting == "session.secret") {
    // Missing and too short are one problem: a stand-in keeps it from being reported twice.
    environment.erase("SESSION_SECRET");
    tree.set(setting, std::string(32, 'x'), "check");
    return true;
  }
  const common::OptionSpec* spec = specOf(setting);
  if (spec != nullptr && spec->env != nullptr && environment.erase(spec->env) > 0) return true;
  if (!tree.has(setting)) return false;
  const auto dot = setting.rfind('.');
  tree = copyWithout(tree, [&](const std::string& s, const std::string& k) {
    return s == setting.substr(0, dot) && k == setting.substr(dot + 1);
  });
  return true;
}

std::optional<Settings> validateCollecting(common::ConfigTree tree, const RunLocation& location,
                                           std::map<std::string, std::string> environment,
                                           std::vector<std::string>& problems) {
  for (int round = 0; round < kMaxRounds; ++round) {
    common::ConfigTree attempt = tree;  // buildSettings layers defaults and environment into it
    try {
      return buildSettings(attempt, location, environment);
    } catch (const common::ConfigError& error) {
      problems.push_back(error.what());
      if (!setAside(error.setting(), tree, environment)) return std::nullopt;
    }
  }
  return std::nullopt;
}

void checkPlugins(const Settings& settings, ConfigReport& report) {
  const catalog::Catalog empty;
  net::PocoHttpClient http;
  const plugin::HostServices services{http, empty};
  plugin::PluginRegistry registry;
  registry.scan(settings.plugin_dir);
  for (const auto& row : registry.report()) {
    if (!row.loaded()) report.warnings.push_back(plugin::refusalMessage(row));
  }
  const std::size_t before = report.problems.size();
  for (const auto& source : settings.sources) {
    if (!source.enabled) continue;
    const plugin::PluginInstanceSpec spec{plugin::PluginKind::kSource, source.name, source.plugin,
                                          source.keys};
    try {
      sourceKind(spec, registry.find(plugin::PluginKind::kSource, source.plugin));
    } catch (const common::ConfigError& error) {
      report.problems.push_back(error.what());
      continue;
    }
    if (auto created = registry.createSource(spec, services); !created) {
      report.problems.push_back("[source." + source.name + "]: " + created.error());
    }
  }
  for (const auto& configured : settings.rates) {
    if (!configured.enabled) continue;
    const plugin::PluginInstanceSpec spec{plugin::PluginKind::kRates, configured.name,
                                          configured.plugin, configured.keys};
    if (auto created = registry.createRates(spec, services); !created) {
      report.problems.push_back("[rates." + configured.name + "]: " + created.error());
    }
  }
  for (const auto& provider : settings.identity_providers) {
    const plugin::PluginInstanceSpec spec{plugin::PluginKind::kIdentity, provider.name,
                                          provider.plugin, provider.keys};
    if (auto created = registry.createIdentity(spec, services); !created) {
      report.problems.push_back("identity provider " + provider.name + ": " + created.error());
    }
  }
  if (report.problems.size() != before) return;
  // The daemon's own plugin setup is the last word (it may create instances of kinds this
  // check does not know yet).
  try {
    checkPluginConfiguration(settings);
  } catch (const common::ConfigError& error) {
    report.problems.push_back(error.what());
  }
}

}  // namespace

ConfigReport checkConfiguration(const std::optional<std::string>& config_file,
                                const RunLocation& location,
                                const std::map<std::string, std::string>& environment) {
  ConfigReport report;
  common::ConfigTree tree;
  report.main_file = mainConfigFile(config_file);
  RunLocation where = location;
  if (!report.main_file.empty()) {
    loadFileCollecting(report.main_file, tree, report.problems);
    try {
      report.drop_ins = dropInFiles(tree, report.main_file);
    } catch (const common::ConfigError& error) {
      report.problems.push_back(error.what());
    }
    for (const auto& file : report.drop_ins) loadFileCollecting(file, tree, report.problems);
    where.config_dir = std::filesystem::path(report.main_file).parent_path().string();
  }
  tree = copyWithout(tree,
                     [](const std::string& s, const std::string&) { return s == kIgnoredSection; });
  const auto settings = validateCollecting(tree, where, environment, report.problems);
  if (settings) checkPlugins(*settings, report);
  return report;
}

int printReport(const ConfigReport& report, std::ostream& out, std::ostream& err) {
  for (const auto& warning : report.warnings) err << "warning: " << warning << "\n";
  for (const auto& problem : report.problems) err << "error: " << problem << "\n";
  const std::string what =
      report.main_file.empty()
          ? " (built-in defaults)"
          : ": " + report.main_file +
                (report.drop_ins.empty()
                     ? std::string()
                     : " + " + std::to_string(report.drop_ins.size()) + " drop-in(s)");
  if (report.ok()) {
    out << "configuration OK" << what << "\n";
    return 0;
  }
  err << "configuration has " << report.problems.size() << " problem(s)" << what << "\n";
  return 1;
}

}  // namespace skinpulse::app
