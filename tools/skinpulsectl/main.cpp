// skinpulsectl: the admin CLI. Reads the same configuration as skinpulsed (same
// layering, same environment variables) and acts on the same database.

#include "Commands.hpp"
#include "common/ConfigError.hpp"
#include "common/Log.hpp"

#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char* kUsage =
    "usage: skinpulsectl [--config FILE] COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  check-config          list every configuration problem, one line each\n"
    "  plugins               list installed plugins: kind, name, version, ABI, status\n"
    "  sources               list the configured market-source instances\n"
    "  migrate               apply pending database migrations\n"
    "  backfill --file FILE  load price history (JSON Lines) into the database\n"
    "                        [--no-progress] [--timings]\n"
    "\n"
    "backfill reads one JSON object per line,\n"
    "  {\"market_hash_name\":NAME, \"source\":NAME, \"time\":\"YYYY-MM-DDTHH:MM:SSZ\",\n"
    "   \"price\":CENTS, \"volume\":N}   (optional: \"kind\":\"ask|bid|sale|reference\",\n"
    "   \"listings\":N), streaming (memory does not grow with the file), and stores the\n"
    "  valid points in one transaction: all of them, or none if it fails or is killed.\n"
    "  Lines it cannot store are counted by reason, with the first line number of each.\n"
    "  A running skinpulsed shows the points within a second. On a terminal a progress\n"
    "  bar with points/s is drawn on stderr (--no-progress: none); --timings prints the\n"
    "  stage split (open, catalogue, read, latest, write, commit) on stderr.\n";

std::string executableDir() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string() : self.parent_path().string();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::optional<std::string> configFile;
  std::optional<std::string> file;
  skinpulse::ctl::BackfillFlags backfill_flags;
  std::string command;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if ((arg == "--config" || arg == "-c") && i + 1 < args.size()) {
      configFile = args[++i];
    } else if (arg == "--file" && i + 1 < args.size()) {
      file = args[++i];
    } else if (arg == "--no-progress") {
      backfill_flags.progress = false;
    } else if (arg == "--timings") {
      backfill_flags.timings = true;
    } else if (arg == "-h" || arg == "--help" || arg == "help") {
      std::cout << kUsage;
      return 0;
    } else if (command.empty() && arg.rfind("-", 0) != 0) {
      command = arg;
    } else {
      std::cerr << "skinpulsectl: unexpected argument '" << arg << "'\n" << kUsage;
      return 2;
    }
  }
  if (command.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  try {
    skinpulse::log::configure("warn", skinpulse::log::Format::kText);
    skinpulse::app::RunLocation location{skinpulse::app::isBuildTreeBinary(executableDir()), ""};
    // check-config validates what the daemon would; the other commands sign nothing.
    if (command == "check-config") {
      skinpulse::log::configure("error", skinpulse::log::Format::kText);
      return skinpulse::ctl::checkConfig(configFile, location);
    }
    location.secret_optional = true;
    const auto config =
        skinpulse::app::loadConfig(configFile, location, skinpulse::app::processEnvironment());
    if (command == "plugins") return skinpulse::ctl::listPlugins(config);
    if (command == "sources") return skinpulse::ctl::listSources(config);
    if (command == "migrate") return skinpulse::ctl::migrate(config);
    if (command == "backfill") {
      if (!file) {
        std::cerr << "skinpulsectl: backfill needs --file FILE\n";
        return 2;
      }
      return skinpulse::ctl::backfill(config, *file, backfill_flags);
    }
    std::cerr << "skinpulsectl: unknown command '" << command << "'\n" << kUsage;
    return 2;
  } catch (const skinpulse::common::ConfigError& error) {
    std::cerr << "skinpulsectl: configuration error: " << error.what() << "\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "skinpulsectl: " << error.what() << "\n";
    return 1;
  }
}
