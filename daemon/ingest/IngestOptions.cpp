#include "ingest/IngestOptions.hpp"

namespace skinpulse::ingest {

const OptionTable<IngestOptions>& ingestOptionTable() {
  using T = OptionType;
  static const OptionTable<IngestOptions> table = {
      {{"storage.retention_days", T::kInteger, 7, 3650, nullptr, "30",
        "Raw price points are kept this many days."},
       &IngestOptions::retention_days},
      {{"catalog.auto_add", T::kBoolean, 0, 0, nullptr, "false",
        "true: names a source reports that are not in the catalogue are added instead of "
        "dropped."},
       &IngestOptions::catalog_auto_add},
  };
  return table;
}

}  // namespace skinpulse::ingest
