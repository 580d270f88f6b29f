#pragma once

// `[rates.NAME]`: one rates plugin instance (docs/api.md §14), configured like a source:
// plugin, enabled, interval_seconds (default 21600: rates move daily), timeout_seconds,
// and the plugin's own keys (`url`, `rates`, ...). The daemon's keys are bound in
// ratesOptionTable() (plugin/ReservedKeys.hpp lists them for the plugins).

#include "common/OptionTable.hpp"

#include <map>
#include <string>

namespace skinpulse::rates {

struct RatesOptions {
  std::string name;    ///< instance name: the `instance` of its rates
  std::string plugin;  ///< plugin name, file <plugin dir>/rates_<plugin>.so
  bool enabled = true;
  int interval_seconds = 21600;
  /// Bounds a poll as a whole: the plugin's own HTTP timeout is the real limit; a poll
  /// still running past it is logged and the next one waits for it.
  int timeout_seconds = 30;
  std::map<std::string, std::string> keys;  ///< plugin-specific keys, passed to the plugin
};

/// The daemon's keys of a `[rates.NAME]` section, written "rates.NAME.key".
const common::OptionTable<RatesOptions>& ratesOptionTable();

/// One `[rates.NAME]` section (`section` = "rates.NAME"): the table's keys, then every
/// other key into `keys`. Throws ConfigError (a bad name, no plugin, a value out of range).
RatesOptions readRatesOptions(const common::OptionReader& read, const std::string& section);

}  // namespace skinpulse::rates
