#include "app/SourceOptions.hpp"

#include "common/ConfigError.hpp"
#include "common/ValueParsers.hpp"
#include "quality/QualityOptions.hpp"

#include <algorithm>

namespace skinpulse::app {

const common::OptionTable<SourceOptions>& sourceOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<SourceOptions> table = {
      {{"source.NAME.plugin", T::kText, 0, 0, nullptr, nullptr,
        "The source plugin to run (file source_<plugin>.so in the plugin directory).",
        "none: required"},
       &SourceOptions::plugin},
      {{"source.NAME.enabled", T::kBoolean, 0, 0, nullptr, "true",
        "false keeps the section without polling it."},
       &SourceOptions::enabled},
      {{"source.NAME.interval_seconds", T::kInteger, 1, 86400, nullptr, "60",
        "Seconds between two polls of the instance."},
       &SourceOptions::interval_seconds},
      {{"source.NAME.timeout_seconds", T::kInteger, 1, 600, nullptr, "30",
        "The longest one poll may take, fetch and parse."},
       &SourceOptions::timeout_seconds},
      // A decimal: read after the table (quality::readDecimal).
      {{"source.NAME.fee_percent", T::kText, 0, 0, nullptr, "0",
        "What a sale on this market costs, 0..100 (a decimal), for the net spread of GET "
        "/api/v1/rankings/spread (docs/api.md §12). Never passed to the plugin."}},
      {{"source.NAME.fresh_seconds", T::kInteger, 60, 2592000, nullptr, nullptr,
        "How long a price of this instance stays fresh (docs/api.md §12).", "3 × interval_seconds"},
       &SourceOptions::fresh_seconds},
  };
  return table;
}

SourceOptions readSourceOptions(const common::OptionReader& read, const std::string& section) {
  SourceOptions source;
  source.name = section.substr(std::string("source.").size());
  if (!common::isValidInstanceName(source.name)) {
    throw common::ConfigError("[" + section + "]", "instance name must match [a-z0-9_-]{1,64}",
                              "[" + section + "]");
  }
  const std::string prefix = section + ".";
  if (!read.present(prefix + "plugin") || read.text(prefix + "plugin").empty()) {
    throw common::ConfigError("[" + section + "] plugin",
                              "missing (the plugin to run, e.g. simulated)", "[" + section + "]");
  }
  common::readInstanceOptions(sourceOptionTable(), read, section, source);
  if (read.present(prefix + "fee_percent")) {
    source.fee_percent = quality::readDecimal(read, prefix + "fee_percent", 0.0, 100.0);
  }
  const auto& table = sourceOptionTable();
  for (const auto& key : read.tree().keysOf(section)) {
    const bool daemons = std::any_of(table.begin(), table.end(), [&](const auto& row) {
      return common::instanceKey(row.spec.key, section) == prefix + key;
    });
    if (!daemons) source.keys[key] = read.text(prefix + key);
  }
  return source;
}

}  // namespace skinpulse::app
