#pragma once

// skinpulsectl subcommands. Each returns the process exit code.

#include "app/ConfigLoader.hpp"

namespace skinpulse::ctl {

/// Every problem of the configuration, one line each (see ConfigCheck).
int checkConfig(const std::optional<std::string>& config_file, const app::RunLocation& location);
int listPlugins(const app::LoadedConfig& config);
int listSources(const app::LoadedConfig& config);
int migrate(const app::LoadedConfig& config);
struct BackfillFlags {
  bool progress = true;  ///< a progress bar on stderr when it is a terminal
  bool timings = false;  ///< the stage split on stderr after the summary
};
int backfill(const app::LoadedConfig& config, const std::string& file, const BackfillFlags& flags);

}  // namespace skinpulse::ctl
