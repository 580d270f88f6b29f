#pragma once

// DaemonMetrics: every metric family the daemon updates as it runs, declared in one
// place (the table of docs/operations.md, "Prometheus metrics", follows this file), in the process'
// registry. Layers update them directly — they sit below every feature — and app/Runtime
// adds what is read at scrape time (process numbers, WebSocket clients).
//
// Label values are bounded sets: source instance names, route templates ("/api/v1/items/:id",
// never a raw path), HTTP methods and status codes, stage names, reasons, channel types.
// Never an item name, a user id or a URL.

#include "telemetry/Registry.hpp"

#include <string_view>

namespace skinpulse::telemetry {

/// The stages of an ingestion cycle, for skinpulse_cycle_stage_duration_seconds.
enum class CycleStage {
  kFetch,         ///< waiting for the sources' fetches
  kParse,         ///< plugin answers into quotes
  kNormalise,     ///< quotes into price points (catalogue match, unit, checks)
  kStore,         ///< the cycle's one transaction
  kLatestPrices,  ///< folding the points into the latest-price cache
  kMetrics,       ///< the metrics engine's observer
  kPublish,       ///< the live-update batch onto the event bus
  kFanout,        ///< the batch to every WebSocket client
};
inline constexpr std::size_t kCycleStageCount = 8;

std::string_view stageName(CycleStage stage);

struct DaemonMetrics {
  // Sources and ingestion cycles.
  CounterFamily& source_polls;            ///< {source, result}
  GaugeFamily& source_last_success;       ///< {source}, Unix seconds
  GaugeFamily& source_interval;           ///< {source}, interval_seconds
  CounterFamily& source_points_accepted;  ///< {source}
  CounterFamily& source_points_rejected;  ///< {source, reason}
  CounterFamily& source_outliers;         ///< {source}
  // What polls read and could not use (docs/api.md §19); labels bounded per source.
  CounterFamily& source_rows_read;           ///< {source}
  CounterFamily& source_rows_skipped;        ///< {source, reason}
  CounterFamily& source_part_failures;       ///< {source, part}
  GaugeFamily& source_consecutive_failures;  ///< {source}
  HistogramFamily& cycle_duration;           ///< whole cycle: fetches to the last observer
  HistogramFamily& cycle_stage_duration;     ///< {stage}

  // The public HTTP listener.
  CounterFamily& http_requests;            ///< {route, method, status}
  HistogramFamily& http_request_duration;  ///< {route, method}

  // Live updates.
  GaugeFamily& ws_clients;
  CounterFamily& ws_frames_sent;
  CounterFamily& ws_bytes_sent;
  CounterFamily& ws_slow_client_closes;

  // The database and the shared-state store.
  CounterFamily& store_errors;                ///< {mode}: read, write
  HistogramFamily& store_operation_duration;  ///< {mode}
  CounterFamily& shared_store_errors;         ///< {backend, operation}
  HistogramFamily& shared_store_duration;     ///< {backend, operation}

  // Features.
  CounterFamily& imports;           ///< {result}
  CounterFamily& alert_deliveries;  ///< {channel, result}
};

/// The daemon's families in Registry::global(), declared on first call.
DaemonMetrics& metrics();

/// One stage of an ingestion cycle took `seconds` (lock-free; any thread).
void observeCycleStage(CycleStage stage, double seconds) noexcept;

/// A whole ingestion cycle took `seconds`.
void observeCycle(double seconds) noexcept;

}  // namespace skinpulse::telemetry
