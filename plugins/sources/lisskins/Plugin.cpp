// Entry point of source_lisskins.so; the logic lives in source_lisskins_core.

#include "skinpulse/sdk/plugin.hpp"

#include "LisskinsSource.hpp"

SKINPULSE_DECLARE_PLUGIN(
    MarketSource, skinpulse::plugins::lisskins::LisskinsSource, "lisskins", "1.0.0",
    "lis-skins full export, streamed: per-item p05/min/median of listings (USD)",
    skinpulse::plugins::lisskins::kConfigKeys)
