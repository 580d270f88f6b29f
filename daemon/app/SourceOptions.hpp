#pragma once

// `[source.NAME]`: one market-source plugin instance. The keys the daemon handles itself
// (which plugin, on or off, interval, timeout — plugin/ReservedKeys.hpp — and the price
// policy's fee_percent and fresh_seconds) are bound in sourceOptionTable(); every other
// key is the plugin's, passed to it and checked against its descriptor.

#include "skinpulse/sdk/types.hpp"

#include "common/OptionTable.hpp"

#include <map>
#include <string>

namespace skinpulse::app {

struct SourceOptions {
  std::string name;    ///< instance name: the `source` of its price points
  std::string plugin;  ///< plugin name, file <plugin dir>/source_<plugin>.so
  bool enabled = true;
  int interval_seconds = 60;
  int timeout_seconds = 30;
  /// The `kind` key (ask, bid, sale, reference; default ask): the kind of the instance's
  /// prices that do not state their own. Set by PluginSet, which knows whether the plugin
  /// leaves the key to the daemon (plugin/ReservedKeys.hpp); `keys` keeps the text.
  sdk::PriceKind kind = sdk::PriceKind::kAsk;
  /// The `fee_percent` key (0..100, default 0): what a sale there costs, for the net
  /// spread of GET /api/v1/rankings/spread (docs/api.md §12). The daemon's, never passed
  /// to the plugin.
  double fee_percent = 0.0;
  /// The `fresh_seconds` key (60..2592000; 0 = unset: 3 × interval_seconds): how long a
  /// price of this instance stays fresh (docs/api.md §12). For sources that revisit an
  /// item far less often than they poll (dmarket's cursor, steam_market's rotation).
  int fresh_seconds = 0;
  std::map<std::string, std::string> keys;  ///< plugin-specific keys, passed to the plugin
};

/// The daemon's keys of a `[source.NAME]` section, written "source.NAME.key".
const common::OptionTable<SourceOptions>& sourceOptionTable();

/// One `[source.NAME]` section (`section` = "source.NAME"): the table's keys, then every
/// other key into `keys`. Throws ConfigError (a bad name, no plugin, a value out of range).
SourceOptions readSourceOptions(const common::OptionReader& read, const std::string& section);

}  // namespace skinpulse::app
