#pragma once

// skinpulsectl subcommands. Each returns the process exit code.

#include "app/ConfigLoader.hpp"

namespace skinpulse::ctl {

/// Every problem of the configuration, one line each (see ConfigCheck).
int checkConfig(const std::optional<std::string>& config_file, const RunLocation& location);
int listPlugins(const LoadedConfig& config);
int listSources(const LoadedConfig& config);
int migrate(const LoadedConfig& config);
int backfill(const LoadedConfig& config, const std::string& file);

}  // namespace skinpulse::ctl
