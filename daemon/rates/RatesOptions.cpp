#include "rates/RatesOptions.hpp"

#include "common/ConfigError.hpp"
#include "common/ValueParsers.hpp"

#include <algorithm>

namespace skinpulse::rates {

const common::OptionTable<RatesOptions>& ratesOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<RatesOptions> table = {
      {{"rates.NAME.plugin", T::kText, 0, 0, nullptr, nullptr,
        "The rates plugin to run (file rates_<plugin>.so in the plugin directory), e.g. ecb.",
        "none: required"},
       &RatesOptions::plugin},
      {{"rates.NAME.enabled", T::kBoolean, 0, 0, nullptr, "true",
        "false keeps the section without polling it."},
       &RatesOptions::enabled},
      {{"rates.NAME.interval_seconds", T::kInteger, 1, 604800, nullptr, "21600",
        "Seconds between two polls (rates move daily; see docs/api.md §14)."},
       &RatesOptions::interval_seconds},
      {{"rates.NAME.timeout_seconds", T::kInteger, 1, 600, nullptr, "30",
        "Bounds a poll as a whole; the plugin's own HTTP timeout is the real limit."},
       &RatesOptions::timeout_seconds},
  };
  return table;
}

RatesOptions readRatesOptions(const common::OptionReader& read, const std::string& section) {
  RatesOptions options;
  options.name = section.substr(std::string("rates.").size());
  if (!common::isValidInstanceName(options.name)) {
    throw common::ConfigError("[" + section + "]", "instance name must match [a-z0-9_-]{1,64}",
                              "[" + section + "]");
  }
  const std::string prefix = section + ".";
  if (!read.present(prefix + "plugin") || read.text(prefix + "plugin").empty()) {
    throw common::ConfigError("[" + section + "] plugin",
                              "missing (the rates plugin to run, e.g. ecb)", "[" + section + "]");
  }
  common::readInstanceOptions(ratesOptionTable(), read, section, options);
  const auto& table = ratesOptionTable();
  for (const auto& key : read.tree().keysOf(section)) {
    const bool daemons = std::any_of(table.begin(), table.end(), [&](const auto& row) {
      return common::instanceKey(row.spec.key, section) == prefix + key;
    });
    if (!daemons) options.keys[key] = read.text(prefix + key);
  }
  return options;
}

}  // namespace skinpulse::rates
