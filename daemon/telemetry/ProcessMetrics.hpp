#pragma once

// ProcessMetrics: the process' own numbers read from /proc at scrape time — resident
// memory, threads, open descriptors, start time and CPU seconds — as the
// skinpulse_process_* families (the contract wants every name under skinpulse_).

#include "telemetry/Registry.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::telemetry {

struct ProcessSample {
  double resident_bytes = 0;
  double threads = 0;
  double open_fds = 0;
  double max_fds = 0;
  double start_time_seconds = 0;  ///< Unix time
  double cpu_seconds = 0;         ///< user + system
};

/// Reads /proc/self (stat, statm, fd, limits) and /proc/stat (boot time); nullopt when
/// /proc cannot be read.
std::optional<ProcessSample> readProcess();

/// The fields of a /proc/<pid>/stat line after the command name, and /proc/stat's
/// `btime`: pure parsers, tested on fixed text.
struct StatFields {
  double utime_ticks = 0;
  double stime_ticks = 0;
  double threads = 0;
  double start_ticks = 0;  ///< since boot
};
std::optional<StatFields> parseStat(std::string_view stat);
std::optional<double> parseBootTime(std::string_view proc_stat);

/// The process families for a scrape.
void collectProcess(std::vector<CollectedFamily>& out);

}  // namespace skinpulse::telemetry
