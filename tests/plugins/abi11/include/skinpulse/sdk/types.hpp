#pragma once

// Value types shared by the host and plugins: standard-library members only.
// Times are Unix seconds (UTC) unless a name says otherwise.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace skinpulse::sdk {

/// Ordered list of name/value pairs (HTTP headers, query or form parameters).
using Fields = std::vector<std::pair<std::string, std::string>>;

/// One catalogue entry as plugins see it.
struct CatalogItem {
  std::int64_t id = 0;
  std::string market_hash_name;
  std::string weapon_type;
  std::string skin_name;
  std::string rarity;
  bool stattrak = false;
};

/// A price as the upstream gave it. The host, not the plugin, turns it into integer USD
/// cents (docs/api.md §4), so every source is normalised by one tested routine.
struct QuotedPrice {
  enum class Form {
    kCents,  ///< integer minor units in `cents`
    kMajor,  ///< a floating-point major-unit amount in `major` (rounded half away from zero)
    kText,   ///< a formatted string in `text`, e.g. "$1,234.56" or "1.234,56€"
  };
  Form form = Form::kCents;
  std::int64_t cents = 0;
  double major = 0.0;
  std::string text;
};

/// One observation of one item on one market, as returned by a source plugin.
struct Observation {
  /// Exactly as the upstream spelled it; the host trims it and matches the catalogue.
  std::string market_hash_name;
  QuotedPrice price;
  /// Traded volume, or another documented count when the upstream has none; 0 if unknown.
  std::int64_t volume = 0;
  /// The upstream's own observation time, when it gives one; otherwise the poll time is used.
  std::optional<std::int64_t> observed_at;
};

}  // namespace skinpulse::sdk
