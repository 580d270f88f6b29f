#pragma once

// Normaliser: a source's observations → price points (docs/api.md §4): names trimmed
// and matched exactly against the catalogue, prices to positive integer cents, volume
// non-negative, the source's own time or the poll time. Everything it drops is counted
// by reason, never silently.

#include "skinpulse/sdk/types.hpp"

#include "catalog/Catalog.hpp"
#include "store/Records.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse {

using RejectionCounts = std::map<std::string, std::size_t>;

struct NormalisedBatch {
  std::vector<PricePoint> points;
  RejectionCounts rejected;
  std::vector<std::string> unknown_names;  ///< trimmed, for [catalog] auto_add
};

/// Trims ASCII whitespace and NBSP at both ends; the name is otherwise kept as is. A view
/// into `name`: a cycle normalises 100,000 names and copies none of them.
std::string_view trimName(std::string_view name);

/// `poll_time` is used for observations without their own time; observations more than
/// five minutes in the future of `poll_time` are refused (a clock or unit error).
NormalisedBatch normalise(const std::string& source, std::int64_t poll_time,
                          const std::vector<sdk::Observation>& observations,
                          const CatalogSnapshot& catalog);

}  // namespace skinpulse
