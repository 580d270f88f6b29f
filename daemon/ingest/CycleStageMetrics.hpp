#pragma once

// CycleStageMetrics: the bridge from the ingestion cycle's and the live hub's stage
// timings (ingest/CycleTimings.hpp) to the histogram
// skinpulse_cycle_stage_duration_seconds{stage} (telemetry/DaemonMetrics.hpp). It lives in
// ingest, the layer above telemetry that defines the stages: the cycle's timings stay
// plain durations, telemetry knows nothing of ingest, and the ingest module (and the live
// hub, which reports the fan-out stage) attach it themselves.

#include "ingest/CycleTimings.hpp"

namespace skinpulse::ingest {

class CycleStageMetrics final : public CycleTimingsObserver {
 public:
  /// One observation per stage the report carries.
  void onCycleTimings(const CycleTimings& timings) override;
};

/// The process-wide bridge: stateless, so one instance serves the ingestion thread and
/// every reactor, and it outlives whatever reports to it.
CycleStageMetrics& cycleStageMetrics();

}  // namespace skinpulse::ingest
