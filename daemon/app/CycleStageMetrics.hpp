#pragma once

// CycleStageMetrics: the bridge from the ingestion cycle's and the live hub's stage
// timings (ingest/CycleTimings.hpp) to the histogram
// skinpulse_cycle_stage_duration_seconds{stage} (telemetry/DaemonMetrics.hpp). It lives in
// app because neither layer may know the other: ingest reports plain durations, telemetry
// knows nothing of ingest.

#include "ingest/CycleTimings.hpp"

namespace skinpulse::app {

class CycleStageMetrics final : public CycleTimingsObserver {
 public:
  /// One observation per stage the report carries.
  void onCycleTimings(const CycleTimings& timings) override;
};

/// The process-wide bridge: stateless, so one instance serves the ingestion thread and
/// every reactor, and it outlives whatever reports to it.
CycleStageMetrics& cycleStageMetrics();

}  // namespace skinpulse::app
