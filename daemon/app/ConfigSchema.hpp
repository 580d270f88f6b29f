#pragma once

// The daemon's own configuration keys: where each lives in INI, which environment
// variable overrides it (decisions.md §1.2) and its built-in default.

#include <string>
#include <vector>

namespace skinpulse {

struct ConfigKeySpec {
  const char* key;       ///< "section.key"
  const char* env;       ///< environment variable, or nullptr
  const char* fallback;  ///< built-in default; nullptr: no default (derived or required)
};

/// Every key of the daemon's own sections. Keys of `[source.*]` sections are the
/// plugins' and are checked against their descriptors instead.
const std::vector<ConfigKeySpec>& daemonConfigKeys();

/// Sections the daemon owns; any other section except `source.*` is an error.
bool isDaemonSection(const std::string& section);

}  // namespace skinpulse
