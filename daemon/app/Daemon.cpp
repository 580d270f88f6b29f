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

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace skinpulse::app {
namespace {

constexpr int kExitConfig = 78;  // EX_CONFIG
constexpr int kExitFailure = 1;

void notify(const std::string& error) {
  if (!error.empty()) log::main().warn("systemd notification failed: {}", error);
}

// The termination signals, blocked in every thread from the start (threads inherit the
// mask), so they are only ever taken by sigwait: the first ends the serving, a second
// one ends the drain early.
sigset_t terminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGQUIT);
  sigaddset(&signals, SIGTERM);
  return signals;
}

// Keeps serving for `period` while /readyz says "draining"; returns early on a second
// termination signal.
void drainFor(std::chrono::seconds period) {
  if (period.count() <= 0) return;
  log::main().info("draining: /readyz answers 503 for {} s while requests are still served",
                   period.count());
  const sigset_t signals = terminationSignals();
  timespec timeout{static_cast<time_t>(period.count()), 0};
  while (true) {
    const int taken = sigtimedwait(&signals, nullptr, &timeout);
    if (taken > 0) {
      log::main().info("second termination signal: drain ended early");
      return;
    }
    if (errno != EINTR) return;  // EAGAIN: the period is over
  }
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
    const sigset_t signals = terminationSignals();
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    Runtime runtime(loaded);
    runtime.start();
    systemd::WatchdogPinger watchdog(notifier);
    watchdog.start();
    notify(notifier.ready("listening on " + loaded.settings.listen_host + ":" +
                          std::to_string(runtime.port())));
    waitForTerminationRequest();
    notify(notifier.stopping());
    // Out of the balancer's rotation first, still serving (docs/operations.md, "Run a
    // fleet"); the watchdog keeps going meanwhile.
    drainFor(runtime.beginDrain());
    log::main().info("shutting down");
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
