#include "app/Daemon.hpp"

#include "BuildPaths.hpp"
#include "app/ConfigError.hpp"
#include "app/ConfigLoader.hpp"
#include "app/PluginSetup.hpp"
#include "app/Runtime.hpp"
#include "common/Log.hpp"

#include <Poco/Exception.h>
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionSet.h>

#include <csignal>
#include <cstdlib>
#include <iostream>

namespace skinpulse {
namespace {

constexpr int kExitConfig = 78;  // EX_CONFIG
constexpr int kExitFailure = 1;

}  // namespace

Daemon::Daemon() { setUnixOptions(true); }

void Daemon::defineOptions(Poco::Util::OptionSet& options) {
  ServerApplication::defineOptions(options);
  options.addOption(Poco::Util::Option("config", "c", "read configuration from FILE")
                        .required(false)
                        .repeatable(false)
                        .argument("FILE"));
  options.addOption(Poco::Util::Option("check-config", "", "validate the configuration and exit")
                        .required(false)
                        .repeatable(false));
  options.addOption(Poco::Util::Option("help", "h", "show this help").required(false));
  options.addOption(Poco::Util::Option("version", "", "print the version").required(false));
}

void Daemon::handleOption(const std::string& name, const std::string& value) {
  ServerApplication::handleOption(name, value);
  if (name == "config") config_file_ = value;
  if (name == "check-config") check_only_ = true;
  if (name == "help") {
    help_ = true;
    stopOptionsProcessing();
  }
  if (name == "version") version_ = true;
}

void Daemon::printHelp() const {
  Poco::Util::HelpFormatter formatter(options());
  formatter.setUnixStyle(true);
  formatter.setCommand(commandName());
  formatter.setUsage("[--config FILE] [--check-config]");
  formatter.setHeader("skinpulse daemon: tracks CS2 item prices and serves them over HTTP.");
  formatter.format(std::cout);
}

int Daemon::main(const std::vector<std::string>&) {
  // A peer that hangs up while we write must cost an error, not the process (OpenSSL
  // writes with plain send()).
  std::signal(SIGPIPE, SIG_IGN);
  if (help_) {
    printHelp();
    return EXIT_OK;
  }
  if (version_) {
    std::cout << "skinpulsed " << build_paths::kVersion << "\n";
    return EXIT_OK;
  }
  LoadedConfig loaded;
  try {
    const RunLocation location{isBuildTreeBinary(config().getString("application.dir", "")), ""};
    loaded = loadConfig(config_file_, location, processEnvironment());
    log::configure(loaded.settings.log_level,
                   loaded.settings.log_json ? log::Format::kJson : log::Format::kText);
    if (check_only_) {
      checkPluginConfiguration(loaded.settings);
      std::cout << "configuration OK"
                << (loaded.main_file.empty() ? " (built-in defaults)" : ": " + loaded.main_file)
                << "\n";
      return EXIT_OK;
    }
  } catch (const ConfigError& error) {
    std::cerr << "skinpulsed: configuration error: " << error.what() << "\n";
    return check_only_ ? kExitFailure : kExitConfig;
  }

  try {
    Runtime runtime(loaded);
    runtime.start();
    waitForTerminationRequest();
    log::main().info("shutting down");
    if (!runtime.stop()) {
      // A plugin is still executing: unloading it would crash, waiting breaks the 5 s
      // shutdown promise. Nothing is mid-transaction (stores happen after fetches).
      log::main().flush();
      std::_Exit(EXIT_OK);
    }
  } catch (const ConfigError& error) {
    std::cerr << "skinpulsed: configuration error: " << error.what() << "\n";
    return kExitConfig;
  } catch (const Poco::Exception& error) {
    log::main().critical("fatal: {}", error.displayText());
    std::cerr << "skinpulsed: fatal: " << error.displayText() << "\n";
    return kExitFailure;
  } catch (const std::exception& error) {
    log::main().critical("fatal: {}", error.what());
    std::cerr << "skinpulsed: fatal: " << error.what() << "\n";
    return kExitFailure;
  }
  log::main().info("stopped");
  return EXIT_OK;
}

}  // namespace skinpulse
