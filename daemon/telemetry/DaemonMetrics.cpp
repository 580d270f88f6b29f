#include "telemetry/DaemonMetrics.hpp"

#include <array>

namespace skinpulse::telemetry {
namespace {

constexpr std::array<std::string_view, kCycleStageCount> kStageNames = {
    "fetch", "parse", "normalise", "store", "latest_prices", "metrics", "publish", "fanout"};

DaemonMetrics declareAll(Registry& r) {
  return DaemonMetrics{
      r.counter("skinpulse_source_polls_total",
                "Polls of a source instance by result (ok, failed, timeout, rate_limited, "
                "store_failed); a poll that read rows and yields no usable one is failed.",
                {"source", "result"}),
      r.gauge("skinpulse_source_last_success_timestamp_seconds",
              "Unix time of the source instance's last successful poll.", {"source"}),
      r.gauge("skinpulse_source_interval_seconds",
              "The source instance's polling interval (a source is fresh while its last "
              "success is younger than three intervals).",
              {"source"}),
      r.counter("skinpulse_source_points_accepted_total",
                "Price points of a source handed to the store.", {"source"}),
      r.counter("skinpulse_source_points_rejected_total",
                "Observations of a source dropped by the normaliser, by reason.",
                {"source", "reason"}),
      r.counter("skinpulse_source_outliers_total",
                "Accepted points of a source flagged as outliers.", {"source"}),
      r.counter("skinpulse_source_rows_read_total",
                "Rows (items, listings) the upstream documents of a source's polls held, "
                "usable or not.",
                {"source"}),
      r.counter("skinpulse_source_rows_skipped_total",
                "Rows of a source's polls that its plugin read and could not use, by reason "
                "(at most 16 reasons per source; the rest count as other).",
                {"source", "reason"}),
      r.counter("skinpulse_source_part_failures_total",
                "Parts of a source's polls (asks or bids, a page) that failed while the rest "
                "was kept, by part (at most 8 parts per source; the rest count as other).",
                {"source", "part"}),
      r.gauge("skinpulse_source_consecutive_failures",
              "Failed polls of a source instance in a row (0 after a success).", {"source"}),
      r.histogram("skinpulse_cycle_duration_seconds",
                  "Duration of an ingestion cycle, from starting the fetches to the last "
                  "cycle observer.",
                  {}, cycleBuckets()),
      r.histogram("skinpulse_cycle_stage_duration_seconds",
                  "Duration of one stage of an ingestion cycle.", {"stage"}, cycleBuckets()),
      r.counter("skinpulse_http_requests_total",
                "HTTP requests answered on the public listener, by route template, method "
                "and status.",
                {"route", "method", "status"}),
      r.histogram("skinpulse_http_request_duration_seconds",
                  "Time from a request's first byte to its response written.", {"route", "method"},
                  latencyBuckets()),
      r.gauge("skinpulse_ws_clients", "Open WebSocket connections."),
      r.counter("skinpulse_ws_frames_sent_total",
                "WebSocket frames written to clients (a cycle's frames of one client count "
                "once when they are coalesced into one write)."),
      r.counter("skinpulse_ws_sent_bytes_total", "Bytes written to WebSocket clients."),
      r.counter("skinpulse_ws_slow_client_closes_total",
                "WebSocket clients closed with 1013 because their send queue was full."),
      r.counter("skinpulse_store_errors_total",
                "Database operations that ended in an error, by lease mode (read, write).",
                {"mode"}),
      r.histogram("skinpulse_store_operation_duration_seconds",
                  "How long a database session was held for one operation, by mode.", {"mode"},
                  latencyBuckets()),
      r.counter("skinpulse_shared_store_errors_total",
                "Shared-state store operations that failed (store unavailable).",
                {"backend", "operation"}),
      r.histogram("skinpulse_shared_store_operation_duration_seconds",
                  "Duration of one shared-state store operation.", {"backend", "operation"},
                  latencyBuckets()),
      r.counter("skinpulse_imports_total",
                "Inventory imports by result (ok, not_linked, invalid_platform_id, cooldown, "
                "upstream_failed, store_unavailable, error).",
                {"result"}),
      r.counter("skinpulse_alert_deliveries_total",
                "Alert delivery attempts by channel type and result (delivered, retry, "
                "failed).",
                {"channel", "result"}),
  };
}

struct StageHistograms {
  std::array<Histogram*, kCycleStageCount> stages{};
  Histogram* cycle = nullptr;
};

// Resolved once, so an observation is one lookup in an array and two atomic adds.
StageHistograms& stageHistograms() {
  static StageHistograms histograms = [] {
    StageHistograms h;
    for (std::size_t i = 0; i < kCycleStageCount; ++i) {
      h.stages[i] = &metrics().cycle_stage_duration.labels({kStageNames[i]});
    }
    h.cycle = &metrics().cycle_duration.get();
    return h;
  }();
  return histograms;
}

}  // namespace

std::string_view stageName(CycleStage stage) {
  return kStageNames[static_cast<std::size_t>(stage)];
}

// The series of the fixed label sets exist from the start, at 0: an alert on
// increase(...) or a dashboard panel then sees a series before the first error.
void precreate(DaemonMetrics& m) {
  m.cycle_duration.get();
  m.ws_clients.get();
  m.ws_frames_sent.get();
  m.ws_bytes_sent.get();
  m.ws_slow_client_closes.get();
  for (const std::string_view mode : {"read", "write"}) m.store_errors.labels({mode});
  for (const std::string_view result : {"ok", "not_linked", "invalid_platform_id", "cooldown",
                                        "upstream_failed", "store_unavailable", "error"}) {
    m.imports.labels({result});
  }
  for (const std::string_view channel : {"webhook", "discord", "telegram", "ws"}) {
    for (const std::string_view result : {"delivered", "retry", "failed"}) {
      m.alert_deliveries.labels({channel, result});
    }
  }
  for (const auto name : kStageNames) m.cycle_stage_duration.labels({name});
}

DaemonMetrics& metrics() {
  static DaemonMetrics all = [] {
    DaemonMetrics m = declareAll(Registry::global());
    precreate(m);
    return m;
  }();
  return all;
}

void observeCycleStage(CycleStage stage, double seconds) noexcept {
  stageHistograms().stages[static_cast<std::size_t>(stage)]->observe(seconds);
}

void observeCycle(double seconds) noexcept { stageHistograms().cycle->observe(seconds); }

}  // namespace skinpulse::telemetry
