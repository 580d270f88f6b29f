#pragma once

// The daemon's loggers. Everything goes to stderr (systemd's journal collects it), as
// text or as JSON lines. Named loggers: "skinpulse" (general), "access" (one line per
// HTTP request), "plugin" (lines written by plugins through the SDK).

#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace skinpulse::log {

enum class Format { kText, kJson };

/// (Re)configures every logger: level is one of trace, debug, info, warn, error, off.
/// Throws std::invalid_argument on an unknown level. Control bytes in messages are escaped
/// in both formats, so no logged request data can start a line of its own. `sink` is
/// stderr unless given (tests pass their own).
void configure(const std::string& level, Format format,
               std::shared_ptr<spdlog::sinks::sink> sink = nullptr);

/// The general logger; always valid (a default stderr logger before configure()).
spdlog::logger& main();
spdlog::logger& access();
spdlog::logger& plugin();

}  // namespace skinpulse::log
