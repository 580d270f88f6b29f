// Entry point of source_csfloat.so; the logic lives in source_csfloat_core.

#include "skinpulse/sdk/plugin.hpp"

#include "CsfloatSource.hpp"

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::csfloat::CsfloatSource, "csfloat",
                         "1.1.0",
                         "CSFloat price list (keyless) or keyed listings: lowest listing per item",
                         skinpulse::plugins::csfloat::kConfigKeys)
