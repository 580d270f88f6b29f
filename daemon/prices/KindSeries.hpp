#pragma once

// One source, one series, one kind (docs/adr/0011-sdk-abi-1-2.md): a polled instance
// stores the prices of its own kind under its name and those of another kind under
// `NAME-<kind>` (dmarket's bids as `dmarket-bid`). These two functions are the naming
// rule and its inverse, so ingest, freshness and the sources list agree on it.

#include "skinpulse/sdk/types.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::prices {

/// The source under which points of `kind` from instance `instance` (of kind
/// `instance_kind`) are stored: the instance's name for its own kind, else NAME-<kind>.
std::string sourceForKind(const std::string& instance, sdk::PriceKind instance_kind,
                          sdk::PriceKind kind);

struct KindSeries {
  std::string_view instance;  ///< the NAME of NAME-<kind>
  sdk::PriceKind kind;
};

/// `source` read as NAME-<kind> (a non-empty NAME, a kind's name after the last '-');
/// nullopt for any other name. Whether NAME is a configured instance is the caller's
/// question.
std::optional<KindSeries> kindSeriesOf(std::string_view source);

}  // namespace skinpulse::prices
