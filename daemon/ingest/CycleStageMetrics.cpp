#include "ingest/CycleStageMetrics.hpp"

#include "telemetry/DaemonMetrics.hpp"

#include <chrono>

namespace skinpulse::ingest {

// The two enums list the same stages in the same order; a stage added to one and not the
// other must fail the build, not land in the wrong bucket.
static_assert(kCycleStageCount == telemetry::kCycleStageCount);
static_assert(static_cast<std::size_t>(CycleStage::kFanout) ==
              static_cast<std::size_t>(telemetry::CycleStage::kFanout));
static_assert(static_cast<std::size_t>(CycleStage::kStore) ==
              static_cast<std::size_t>(telemetry::CycleStage::kStore));

void CycleStageMetrics::onCycleTimings(const CycleTimings& timings) {
  for (std::size_t i = 0; i < kCycleStageCount; ++i) {
    if (!timings.measured[i]) continue;
    telemetry::observeCycleStage(static_cast<telemetry::CycleStage>(i),
                                 std::chrono::duration<double>(timings.durations[i]).count());
  }
}

CycleStageMetrics& cycleStageMetrics() {
  static CycleStageMetrics bridge;
  return bridge;
}

}  // namespace skinpulse::ingest
