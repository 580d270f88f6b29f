#pragma once

// skinpulsectl subcommands. Each returns the process exit code.

#include "app/ConfigLoader.hpp"

namespace skinpulse::ctl {

int checkConfig(const LoadedConfig& config);
int listPlugins(const LoadedConfig& config);
int listSources(const LoadedConfig& config);
int migrate(const LoadedConfig& config);
int backfill(const LoadedConfig& config, const std::string& file);

}  // namespace skinpulse::ctl
