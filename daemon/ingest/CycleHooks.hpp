#pragma once

// CycleHooks: what ingestion offers the modules that follow its cycles (metrics, alerts,
// live updates), through the registry (module/Registry.hpp): the IngestModule provides
// it, each observer module attaches itself in its attach(). Ingestion stays ignorant of
// who observes it.

#include "ingest/CycleObserver.hpp"
#include "ingest/CycleTimings.hpp"

namespace skinpulse::ingest {

class CycleHooks {
 public:
  virtual ~CycleHooks() = default;

  /// Told after every stored cycle and every reload, timed as `stage`. Observers of an
  /// earlier stage run first (kMetrics before kPublish: the live updates read this
  /// cycle's metrics); within a stage, in the order they attached (the module table's).
  /// Attach before the modules start.
  virtual void addObserver(CycleObserver& observer, CycleStage stage = CycleStage::kMetrics) = 0;
  /// Told every cycle's stage timings. Attach before the modules start.
  virtual void addTimingsObserver(CycleTimingsObserver& observer) = 0;
  /// Whether this instance polls (holds the ingest lease) rather than stands by.
  virtual bool polling() const = 0;
};

}  // namespace skinpulse::ingest
