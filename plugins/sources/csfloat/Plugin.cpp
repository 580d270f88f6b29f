// Entry point of source_csfloat.so; the logic lives in source_csfloat_core.

#include "skinpulse/sdk/plugin.hpp"

#include "CsfloatSource.hpp"

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::csfloat::CsfloatSource, "csfloat",
                         "1.0.0", "CSFloat /api/v1/listings: cheapest recent listing per item",
                         skinpulse::plugins::csfloat::kConfigKeys)
