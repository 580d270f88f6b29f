#pragma once

// ProgressBar: one line on a terminal, redrawn at most ten times a second, for
// `skinpulsectl backfill`: the stage, a bar (bytes read of the file while reading, points
// written of those read while writing), the count and the rate in points per second.

#include "ingest/Backfill.hpp"

#include <chrono>
#include <cstdint>
#include <ostream>

namespace skinpulse::ctl {

class ProgressBar {
 public:
  ProgressBar(std::ostream& out, std::uint64_t file_bytes);
  void update(const ingest::BackfillProgress& progress);
  /// Clears the line, so what follows starts on a clean one.
  void done();

 private:
  std::ostream& out_;
  std::uint64_t file_bytes_;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point stage_started_;
  std::chrono::steady_clock::time_point drawn_{};
  ingest::BackfillProgress::Stage stage_ = ingest::BackfillProgress::Stage::kReading;
};

}  // namespace skinpulse::ctl
