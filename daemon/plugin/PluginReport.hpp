#pragma once

// One row per plugin file found by a scan: what `skinpulsectl plugins` prints and /readyz
// summarises.

#include <string>

namespace skinpulse::plugin {

struct PluginReportRow {
  std::string file;     ///< file name only, e.g. "source_steam.so"
  std::string kind;     ///< "source", "identity", "metric"; from the file name when refused early
  std::string name;     ///< plugin name; from the file name when refused early
  std::string version;  ///< plugin version; empty when the descriptor could not be trusted
  std::string abi;      ///< SDK ABI "major.minor" the plugin was built for; empty if unknown
  std::string status;   ///< "loaded" or "refused"
  std::string reason;   ///< why it was refused; empty when loaded

  bool loaded() const { return status == "loaded"; }
};

/// The one log line for a refusal: "plugin source_old.so refused: SDK ABI 2.0, ...".
inline std::string refusalMessage(const PluginReportRow& row) {
  return "plugin " + row.file + " refused: " + row.reason;
}

}  // namespace skinpulse::plugin
