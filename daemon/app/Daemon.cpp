#include "app/Daemon.hpp"

#include "BuildPaths.hpp"
#include "app/ConfigCheck.hpp"
#include "app/ConfigLoader.hpp"
#include "app/ConfigSchema.hpp"
#include "app/Runtime.hpp"
#include "app/SystemdNotify.hpp"
#include "common/ConfigError.hpp"
#include "common/Log.hpp"
#include "common/OpenFileLimit.hpp"

#include <Poco/Exception.h>
#include <Poco/Util/HelpFormatter.h>
#include <Poco/Util/Option.h>
#include <Poco/Util/OptionSet.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace skinpulse::app {
namespace {

constexpr int kExitConfig = 78;  // EX_CONFIG
constexpr int kExitFailure = 1;

void notify(const std::string& error) {
  if (!error.empty()) log::main().warn("systemd notification failed: {}", error);
}

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
  options.addOption(Poco::Util::Option("print-config-reference", "",
                                       "print every configuration key (docs/configuration.md)")
                        .required(false));
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
  if (name == "print-config-reference") reference_ = true;
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
  if (reference_) {
    std::cout << renderConfigReference();
    return EXIT_OK;
  }
  if (version_) {
    std::cout << "skinpulsed " << build_paths::kVersion << "\n";
    return EXIT_OK;
  }
  const RunLocation location{isBuildTreeBinary(config().getString("application.dir", "")), ""};
  if (check_only_) {
    // Every problem, one line each; the plugins' own log lines would only repeat them.
    log::configure("error", log::Format::kText);
    return printReport(checkConfiguration(config_file_, location, processEnvironment()), std::cout,
                       std::cerr) == 0
               ? EXIT_OK
               : kExitFailure;
  }
  LoadedConfig loaded;
  try {
    loaded = loadConfig(config_file_, location, processEnvironment());
    log::configure(loaded.settings.log_level,
                   loaded.settings.log_json ? log::Format::kJson : log::Format::kText);
  } catch (const common::ConfigError& error) {
    std::cerr << "skinpulsed: configuration error: " << error.what() << "\n";
    return kExitConfig;
  }

  try {
    // Under systemd (Type=notify) the manager learns we are ready only once we listen, and
    // that a stop is ours, not a crash; without $NOTIFY_SOCKET these are no-ops.
    const auto notifier = systemd::Notifier::fromEnvironment(processEnvironment(), ::getpid());
    common::raiseOpenFileLimit();
    Runtime runtime(loaded);
    runtime.start();
    systemd::WatchdogPinger watchdog(notifier);
    watchdog.start();
    notify(notifier.ready("listening on " + loaded.settings.listen_host + ":" +
                          std::to_string(runtime.port())));
    waitForTerminationRequest();
    log::main().info("shutting down");
    notify(notifier.stopping());
    watchdog.stop();
    if (!runtime.stop()) {
      // A plugin is still executing: unloading it would crash, waiting breaks the 5 s
      // shutdown promise. Nothing is mid-transaction (stores happen after fetches).
      log::main().flush();
      std::_Exit(EXIT_OK);
    }
  } catch (const common::ConfigError& error) {
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

}  // namespace skinpulse::app
