#pragma once

// skinport: one GET {url}/v1/items?app_id=730&currency=USD per poll (the whole catalogue
// in one Brotli-compressed JSON array, ~20,000 rows). Each row becomes one VariantQuote (SDK
// ABI 1.3): the price is `min_price` (lowest current listing, USD major units; kind left to
// the instance, default ask), falling back to `suggested_price` (kind reference); `quantity`
// is the number of current listings and goes to `listings` (Skinport has no traded volume on
// this endpoint: volume stays 0); `updated_at` is the observation time; `version` names the
// row's variant (a Doppler phase; several rows share a name, each is passed on). Parsed by the
// shared list reader (plugins/sources/common/ListSource.hpp, simdjson).

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"

#include "ListSource.hpp"

namespace skinpulse::plugins::skinport {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    SKINPULSE_LIST_SOURCE_KEYS("https://api.skinport.com", "33554432"),
    {"currency", "price currency; only USD is supported (default USD)", 0},
};

/// Where the rows and their fields are (also what bench/sources and the fuzz target use).
support::Mapping mapping();

class SkinportSource final : public support::ListSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit SkinportSource(sdk::Host& host);
};

}  // namespace skinpulse::plugins::skinport
