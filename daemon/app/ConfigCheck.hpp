#pragma once

// ConfigCheck: every problem of a configuration at once, for `skinpulsed --check-config`
// (the unit's ExecStartPre) and `skinpulsectl check-config`. Starting the daemon stops
// at the first problem; an admin fixing a file wants the whole list, one line each.
//
// It loads the same layers as loadConfig(), and after each problem sets the offending
// value aside (a malformed line, a bad value falls back to its default, an unknown or
// broken section is dropped) and validates again, so one mistake is reported once and
// does not hide the next. Then every enabled plugin instance is created on its own.

#include "app/Settings.hpp"

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace skinpulse::app {

struct ConfigReport {
  std::string main_file;  ///< "" on built-in defaults
  std::vector<std::string> drop_ins;
  std::vector<std::string> problems;  ///< each one line: "<where>: <what is wrong>"
  std::vector<std::string> warnings;  ///< harmless now (e.g. a refused plugin nobody uses)

  bool ok() const { return problems.empty(); }
};

ConfigReport checkConfiguration(const std::optional<std::string>& config_file,
                                const RunLocation& location,
                                const std::map<std::string, std::string>& environment);

/// Prints problems and warnings to `err`, one line each, and the verdict to `out`
/// ("configuration OK: FILE"). Returns the exit code: 0 when OK, 1 otherwise.
int printReport(const ConfigReport& report, std::ostream& out, std::ostream& err);

}  // namespace skinpulse::app
