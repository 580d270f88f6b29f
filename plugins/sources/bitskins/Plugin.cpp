// Entry point of source_bitskins.so; the logic lives in source_bitskins_core.

#include "skinpulse/sdk/plugin.hpp"

#include "BitskinsSource.hpp"

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::bitskins::BitskinsSource, "bitskins",
                         "1.0.0", "BitSkins /market/insell/730: lowest listing per item (USD)",
                         skinpulse::plugins::support::kListConfigKeys)
