#pragma once

// IngestOptions: what the ingestion feature reads of the configuration (its table:
// ingestOptionTable).

#include "common/OptionTable.hpp"

#include <chrono>

namespace skinpulse::ingest {

struct IngestOptions {
  bool catalog_auto_add = true;  ///< [catalog] auto_add: unknown names join the catalogue
  /// [catalog] auto_add_min_sources: distinct source instances that must report a name
  int catalog_auto_add_min_sources = 2;
  int retention_days = 30;  ///< [storage] retention_days
  /// [storage] rollup_hourly_days: hourly bars kept this many days (0 = forever)
  int rollup_hourly_days = 400;
  /// [storage] rollup_daily_days: daily bars kept this many days (0 = forever)
  int rollup_daily_days = 0;
  /// How long stop() waits for fetches in flight: the contract gives shutdown 5 s, and
  /// fetches get most of it.
  std::chrono::milliseconds stop_grace{3500};
  /// How often points written by another process are looked for: the store's backfill
  /// revision (skinpulsectl backfill, docs/adr/0020-streaming-backfill.md) and, on a
  /// standby, the polling instance's cycle log (one keyed read each).
  std::chrono::milliseconds backfill_watch_period{250};
};

const common::OptionTable<IngestOptions>& ingestOptionTable();

}  // namespace skinpulse::ingest
