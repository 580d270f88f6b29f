#pragma once

#include "app/Settings.hpp"

#include <optional>
#include <string>

namespace skinpulse::app {

/// Everything decided from the command line and the files before validation.
struct LoadedConfig {
  Settings settings;
  std::string main_file;  ///< "" when running on built-in defaults
  std::vector<std::string> drop_ins;
};

/// Layers built-in defaults → `config_file` (or /etc/skinpulse/skinpulsed.ini when it
/// exists and none is given) → `[daemon] conf_d`/*.ini in lexical order → environment,
/// then validates. Throws ConfigError.
LoadedConfig loadConfig(const std::optional<std::string>& config_file, const RunLocation& location,
                        const std::map<std::string, std::string>& environment);

/// The main file loadConfig reads: `config_file`, else the installed one when it exists,
/// else "" (built-in defaults).
std::string mainConfigFile(const std::optional<std::string>& config_file);

/// The drop-ins named by `[daemon] conf_d` of `tree` (the main file's values), sorted.
/// Throws ConfigError when conf_d is set but not a directory.
std::vector<std::string> dropInFiles(const common::ConfigTree& tree, const std::string& main_file);

/// Whether `executable_dir` is the build tree's bin directory.
bool isBuildTreeBinary(const std::string& executable_dir);

}  // namespace skinpulse::app
