#include "Commands.hpp"

#include "ProgressBar.hpp"
#include "app/ConfigCheck.hpp"
#include "app/PluginSetup.hpp"
#include "catalog/Catalog.hpp"
#include "catalog/CatalogSeeder.hpp"
#include "common/Time.hpp"
#include "ingest/Backfill.hpp"
#include "store/Database.hpp"

#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <unistd.h>

namespace skinpulse::ctl {
namespace {

// The rows a source's polls read and skipped, and its failed parts (docs/api.md §19); absent
// from a daemon older than SDK ABI 1.3.
void printPollCounts(const Poco::JSON::Object::Ptr& state) {
  if (!state->has("rows_read")) return;
  const auto skipped = state->getObject("rows_skipped");
  const auto last = state->getObject("last_poll_rows");
  if (skipped && skipped->size() > 0) {
    std::cout << "    rows read " << state->getValue<Poco::Int64>("rows_read")
              << " since start, last poll " << last->getValue<Poco::Int64>("read") << "\n";
    const auto lastSkipped = last->getObject("skipped");
    for (const auto& [reason, count] : *skipped) {
      std::cout << "    skipped " << count.toString() << ": " << reason;
      if (lastSkipped && lastSkipped->has(reason)) {
        std::cout << " (last poll " << lastSkipped->getValue<Poco::Int64>(reason) << ")";
      }
      std::cout << "\n";
    }
  }
  const auto failures = state->getValue<Poco::Int64>("part_failures");
  const auto part = state->getObject("last_part_failure");
  if (failures > 0 && part) {
    std::cout << "    failed parts " << failures << ", last at "
              << part->getValue<std::string>("time") << ": " << part->getValue<std::string>("error")
              << "\n";
  }
}

std::string textOf(const Poco::JSON::Object::Ptr& object, const std::string& key,
                   const std::string& fallback) {
  return object->has(key) && !object->isNull(key) ? object->getValue<std::string>(key) : fallback;
}

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::unique_ptr<store::Database> open(const app::Settings& settings) {
  return store::openDatabase(settings.database_url, settings.share_dir + "/sql");
}

}  // namespace

int checkConfig(const std::optional<std::string>& config_file, const app::RunLocation& location) {
  return app::printReport(app::checkConfiguration(config_file, location, app::processEnvironment()),
                          std::cout, std::cerr);
}

int listPlugins(const app::LoadedConfig& config) {
  plugin::PluginRegistry registry;
  registry.scan(config.settings.plugin_dir);
  std::cout << "plugin directory: " << config.settings.plugin_dir << "\n";
  std::cout << std::left << std::setw(10) << "KIND" << std::setw(18) << "NAME" << std::setw(10)
            << "VERSION" << std::setw(6) << "ABI" << std::setw(9) << "STATUS"
            << "FILE\n";
  for (const auto& row : registry.report()) {
    std::cout << std::setw(10) << row.kind << std::setw(18) << row.name << std::setw(10)
              << (row.version.empty() ? "-" : row.version) << std::setw(6)
              << (row.abi.empty() ? "-" : row.abi) << std::setw(9) << row.status << row.file
              << (row.reason.empty() ? "" : ": " + row.reason) << "\n";
  }
  return 0;
}

int listSources(const app::LoadedConfig& config) {
  // Live state comes from the running daemon's detailed /readyz on the admin listener
  // (the public one carries no per-source state); without one, the configuration.
  std::map<std::string, Poco::JSON::Object::Ptr> live;
  std::string reachability;
  const auto& settings = config.settings;
  const std::string host = settings.admin.enabled ? settings.admin.host : settings.listen_host;
  const std::uint16_t port = settings.admin.enabled ? settings.admin.port : settings.listen_port;
  try {
    Poco::Net::HTTPClientSession session(host, port);
    session.setTimeout(Poco::Timespan(3, 0));
    Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_GET, "/readyz");
    session.sendRequest(request);
    Poco::Net::HTTPResponse response;
    std::istream& body = session.receiveResponse(response);
    Poco::JSON::Parser parser;
    const auto ready = parser.parse(body).extract<Poco::JSON::Object::Ptr>();
    const auto sources = ready->getArray("sources");
    for (std::size_t i = 0; sources && i < sources->size(); ++i) {
      const auto source = sources->getObject(static_cast<unsigned>(i));
      live[source->getValue<std::string>("name")] = source;
    }
  } catch (const Poco::Exception& error) {
    reachability = "daemon's admin listener at " + host + ":" + std::to_string(port) +
                   " not reachable (" + error.displayText() + "): showing configuration only";
  }
  if (!reachability.empty()) std::cout << reachability << "\n";
  std::cout << std::left << std::setw(16) << "INSTANCE" << std::setw(14) << "PLUGIN" << std::setw(8)
            << "ENABLED" << std::setw(9) << "INTERVAL" << std::setw(22) << "LAST POLL"
            << std::setw(10) << "ACCEPTED" << std::setw(9) << "FAILURES" << std::setw(22)
            << "NEXT POLL"
            << "LAST ERROR\n";
  for (const auto& source : config.settings.sources) {
    std::cout << std::setw(16) << source.name << std::setw(14) << source.plugin << std::setw(8)
              << (source.enabled ? "yes" : "no") << std::setw(9)
              << (std::to_string(source.interval_seconds) + "s");
    const auto it = live.find(source.name);
    if (it == live.end()) {
      std::cout << "-\n";
      continue;
    }
    const auto& state = it->second;
    std::cout << std::setw(22) << textOf(state, "last_poll", "never") << std::setw(10)
              << state->getValue<Poco::Int64>("points_accepted") << std::setw(9)
              << state->getValue<int>("consecutive_failures") << std::setw(22)
              << textOf(state, "next_poll", "-") << textOf(state, "last_error", "") << "\n";
    const auto rejected = state->getObject("points_rejected");
    for (const auto& [reason, count] : *rejected) {
      std::cout << "    rejected " << count.toString() << ": " << reason << "\n";
    }
    printPollCounts(state);
  }
  return 0;
}

int migrate(const app::LoadedConfig& config) {
  const auto database = open(config.settings);
  std::cout << database->backend() << " schema at version " << database->schemaVersion() << "\n";
  return 0;
}

int backfill(const app::LoadedConfig& config, const std::string& file, const BackfillFlags& flags) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "skinpulsectl: cannot read " << file << "\n";
    return 1;
  }
  std::error_code size_error;
  const auto file_bytes = std::filesystem::file_size(file, size_error);
  auto started = std::chrono::steady_clock::now();
  const auto database = open(config.settings);
  const double open_ms = msSince(started);
  // The names of the catalogue in the database. The catalogue file is seeded (about a
  // quarter of a second for 35,000 items) only into an empty database, or when lines
  // name items the database does not know yet: the daemon seeds it at every start.
  started = std::chrono::steady_clock::now();
  auto records = database->catalog().itemNames();
  if (records.empty()) {
    catalog::seedCatalog(database->catalog(), config.settings.catalog_file);
    records = database->catalog().itemNames();
  }
  const auto catalog = catalog::CatalogSnapshot::forMatching(std::move(records));
  double catalog_ms = msSince(started);
  const auto refresh = [&]() -> std::unique_ptr<const catalog::CatalogSnapshot> {
    const auto refreshed = std::chrono::steady_clock::now();
    const auto seeded = catalog::seedCatalog(database->catalog(), config.settings.catalog_file);
    if (seeded.inserted == 0) return nullptr;  // the unknown names are not in the file either
    auto newer = catalog::CatalogSnapshot::forMatching(database->catalog().itemNames());
    catalog_ms += msSince(refreshed);
    return newer;
  };
  // Flagged as the daemon's cycles would (docs/api.md §12), with its configuration.
  std::vector<prices::SourceProfile> profiles;
  for (const auto& source : config.settings.sources) {
    profiles.push_back(prices::SourceProfile{source.name, source.plugin, source.kind,
                                             source.enabled, source.interval_seconds,
                                             source.fee_percent, source.fresh_seconds});
  }
  // Flags only: the policy's reference order and outlier exclusion are not read here.
  const prices::PricePolicy outliers(std::move(profiles), {}, true,
                                     config.settings.quality.outlier_factor);
  // A bar on a terminal only: scripts and tests read stdout and stderr as before.
  std::optional<ProgressBar> bar;
  if (flags.progress && isatty(STDERR_FILENO) == 1)
    bar.emplace(std::cerr, size_error ? 0 : file_bytes);
  ingest::BackfillOptions options;
  options.outliers = &outliers;
  // Older points go to the rollups only, at the cut-off the running daemon's retention uses.
  options.raw_retention_days = config.settings.ingest.retention_days;
  if (bar) options.progress = [&bar](const ingest::BackfillProgress& p) { bar->update(p); };
  options.refresh_catalog = refresh;
  const auto result =
      skinpulse::ingest::backfill(in, *catalog, database->prices(), time::nowSeconds(), options);
  if (bar) bar->done();
  std::size_t rejected = 0;
  for (const auto& [reason, count] : result.rejected) rejected += count;
  std::cout << file << ": " << result.read << " lines, " << result.stored << " stored, "
            << result.duplicates << " already stored, " << rejected << " rejected\n";
  for (const auto& [reason, count] : result.rejected) {
    std::cout << "  rejected " << count << ": " << reason;
    const auto first = result.first_line.find(reason);
    if (first != result.first_line.end()) std::cout << " (first at line " << first->second << ")";
    std::cout << "\n";
  }
  if (flags.timings) {
    std::cerr << std::fixed << std::setprecision(1) << "backfill stages: open " << open_ms
              << " ms, catalogue " << catalog_ms << " ms, read " << result.read_ms << " ms, latest "
              << result.latest_ms << " ms, write " << result.write_ms << " ms, commit "
              << result.commit_ms << " ms\n";
  }
  return 0;
}

}  // namespace skinpulse::ctl
