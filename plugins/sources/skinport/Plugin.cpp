// Entry point of source_skinport.so; the logic lives in source_skinport_core.

#include "skinpulse/sdk/plugin.hpp"

#include "SkinportSource.hpp"

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::skinport::SkinportSource, "skinport",
                         "1.1.0", "Skinport /v1/items: lowest listing per item (USD)",
                         skinpulse::plugins::skinport::kConfigKeys)
