#include "ingest/IngestOptions.hpp"

namespace skinpulse::ingest {

const common::OptionTable<IngestOptions>& ingestOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<IngestOptions> table = {
      {{"storage.retention_days", T::kInteger, 7, 3650, nullptr, "30",
        "Raw price points are kept this many days."},
       &IngestOptions::retention_days},
      {{"storage.rollup_hourly_days", T::kInteger, 0, 36500, nullptr, "400",
        "Hourly price bars (open, high, low, close, volume) are kept this many days; 0 keeps "
        "them forever. They serve candles of 1h interval beyond the raw retention."},
       &IngestOptions::rollup_hourly_days},
      {{"storage.rollup_daily_days", T::kInteger, 0, 36500, nullptr, "0",
        "Daily price bars are kept this many days; 0 (the default) keeps them forever. They "
        "serve 1d and 1w candles up to window=all."},
       &IngestOptions::rollup_daily_days},
      {{"catalog.auto_add", T::kBoolean, 0, 0, nullptr, "true",
        "true: a name missing from the catalogue that auto_add_min_sources enabled sources "
        "report within 24 h is added (fields parsed from the name; junk names are refused "
        "and counted). false: such names are counted and dropped."},
       &IngestOptions::catalog_auto_add},
      {{"catalog.auto_add_min_sources", T::kInteger, 1, 64, nullptr, "2",
        "How many distinct enabled source instances must report a new name within 24 h "
        "before auto_add adds it."},
       &IngestOptions::catalog_auto_add_min_sources},
  };
  return table;
}

}  // namespace skinpulse::ingest
