#pragma once

// CycleTimings: how long each stage of one ingestion cycle took, for the debug log and
// for whoever exports them (a histogram per stage). Deliberately plain: no daemon types,
// so an exporter includes this header and nothing else.
//
// The ingestion thread reports fetch..publish once per stored cycle; the live-update hub
// reports fan-out separately (its reactors finish after the cycle returned), with only
// that stage measured.

#include <array>
#include <chrono>
#include <cstddef>
#include <string_view>

namespace skinpulse::ingest {

enum class CycleStage : std::size_t {
  kFetch,         ///< waiting for the upstream's answer (host HTTP client), slowest source
  kParse,         ///< the plugin turning the body into quotes, slowest source
  kNormalise,     ///< quotes → catalogue ids and USD cents
  kStore,         ///< the cycle's transaction, history-cache drops and images
  kLatestPrices,  ///< the next latest-price snapshot (with outlier judging) and its commit
  /// The observers before live updates (metrics engine, alerts): what they add after the
  /// store (waiting for the metrics prepared alongside it, committing, onCycle)
  kMetrics,
  kPublish,  ///< rendering the cycle's entries and handing them to the event bus
  kFanout,   ///< from the hub taking a cycle to the last reactor handing it to the kernel
};

inline constexpr std::size_t kCycleStageCount = 8;

/// Lower-case stage names, as a metrics label: fetch, parse, normalise, store,
/// latest_prices, metrics, publish, fanout.
inline constexpr std::array<std::string_view, kCycleStageCount> kCycleStageNames = {
    "fetch", "parse", "normalise", "store", "latest_prices", "metrics", "publish", "fanout"};

struct CycleTimings {
  std::array<std::chrono::nanoseconds, kCycleStageCount> durations{};
  std::array<bool, kCycleStageCount> measured{};  ///< stages this report carries
  std::size_t points = 0;  ///< normalised points (fan-out: entries of the last batch)

  void set(CycleStage stage, std::chrono::nanoseconds duration) {
    durations[static_cast<std::size_t>(stage)] = duration;
    measured[static_cast<std::size_t>(stage)] = true;
  }
  void add(CycleStage stage, std::chrono::nanoseconds duration) {
    durations[static_cast<std::size_t>(stage)] += duration;
    measured[static_cast<std::size_t>(stage)] = true;
  }
};

/// Receives every cycle's timings; called on the reporting thread (ingestion, or a
/// reactor for fan-out): must be quick and must not throw.
class CycleTimingsObserver {
 public:
  virtual ~CycleTimingsObserver() = default;
  virtual void onCycleTimings(const CycleTimings& timings) = 0;
};

}  // namespace skinpulse::ingest
