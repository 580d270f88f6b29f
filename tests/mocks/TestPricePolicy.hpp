#pragma once

// Price policies for unit tests of the consumers (items, metrics, portfolio, alerts,
// quality): the enabled sources that decide the default reference order, without the
// freshness of a polled source getting in the way of tests about something else.

#include "prices/PricePolicy.hpp"

#include <string>
#include <utility>
#include <vector>

namespace skinpulse::test {

/// Every source of `enabled` an enabled instance, in that order (the default reference
/// order of docs/api.md §3.1). Each stays fresh for `fresh_seconds`, a day by default:
/// as long as a source the daemon does not poll, so a test about ordering or outliers
/// sees the freshness of a policy without sources.
inline prices::PricePolicy pricePolicy(const std::vector<std::string>& enabled,
                                       bool exclude_outliers = true,
                                       std::vector<std::string> reference_sources = {},
                                       int fresh_seconds = 86400) {
  std::vector<prices::SourceProfile> sources;
  for (const auto& name : enabled) {
    prices::SourceProfile profile;
    profile.name = name;
    profile.plugin = name;
    profile.enabled = true;
    profile.fresh_seconds = fresh_seconds;
    sources.push_back(std::move(profile));
  }
  return prices::PricePolicy(std::move(sources), std::move(reference_sources), exclude_outliers,
                             3.0);
}

}  // namespace skinpulse::test
