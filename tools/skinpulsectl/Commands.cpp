#include "Commands.hpp"

#include "app/PluginSetup.hpp"
#include "catalog/Catalog.hpp"
#include "catalog/CatalogSeeder.hpp"
#include "prices/Backfill.hpp"
#include "store/Database.hpp"

#include <fstream>
#include <iomanip>
#include <iostream>

namespace skinpulse::ctl {
namespace {

std::unique_ptr<Database> open(const Settings& settings) {
  return openDatabase(settings.database_url, settings.share_dir + "/sql");
}

}  // namespace

int checkConfig(const LoadedConfig& config) {
  checkPluginConfiguration(config.settings);
  std::cout << "configuration OK"
            << (config.main_file.empty() ? " (built-in defaults)" : ": " + config.main_file)
            << "\n";
  return 0;
}

int listPlugins(const LoadedConfig& config) {
  PluginRegistry registry;
  registry.scan(config.settings.plugin_dir);
  std::cout << "plugin directory: " << config.settings.plugin_dir << "\n";
  std::cout << std::left << std::setw(28) << "FILE" << std::setw(10) << "KIND" << std::setw(18)
            << "NAME" << std::setw(10) << "VERSION"
            << "STATUS\n";
  for (const auto& row : registry.report()) {
    std::cout << std::setw(28) << row.file << std::setw(10) << row.kind << std::setw(18) << row.name
              << std::setw(10) << row.version << row.status
              << (row.reason.empty() ? "" : ": " + row.reason) << "\n";
  }
  return 0;
}

int listSources(const LoadedConfig& config) {
  std::cout << std::left << std::setw(20) << "INSTANCE" << std::setw(18) << "PLUGIN" << std::setw(9)
            << "ENABLED"
            << "INTERVAL\n";
  for (const auto& source : config.settings.sources) {
    std::cout << std::setw(20) << source.name << std::setw(18) << source.plugin << std::setw(9)
              << (source.enabled ? "yes" : "no") << source.interval_seconds << "s\n";
  }
  return 0;
}

int migrate(const LoadedConfig& config) {
  const auto database = open(config.settings);
  std::cout << database->backend() << " schema at version " << database->schemaVersion() << "\n";
  return 0;
}

int backfill(const LoadedConfig& config, const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "skinpulsectl: cannot read " << file << "\n";
    return 1;
  }
  const auto database = open(config.settings);
  // The catalogue must exist to match names; seeding is idempotent.
  seedCatalog(database->catalog(), config.settings.catalog_file);
  const CatalogSnapshot catalog(database->catalog().allItems());
  const auto result = skinpulse::backfill(in, catalog, database->prices());
  std::size_t rejected = 0;
  for (const auto& [reason, count] : result.rejected) rejected += count;
  std::cout << file << ": " << result.read << " lines, " << result.stored << " stored, "
            << result.duplicates << " already stored, " << rejected << " rejected\n";
  for (const auto& [reason, count] : result.rejected) {
    std::cout << "  rejected " << count << ": " << reason << "\n";
  }
  return 0;
}

}  // namespace skinpulse::ctl
