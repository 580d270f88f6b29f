// Entry point of source_steam_market.so; the logic lives in source_steam_market_core.

#include "skinpulse/sdk/plugin.hpp"

#include "SteamMarketSource.hpp"

SKINPULSE_DECLARE_PLUGIN(
    MarketSource, skinpulse::plugins::steam_market::SteamMarketSource, "steam_market", "1.2.0",
    "Steam Community Market (USD): priceoverview rotating over items, or bulk search pages",
    skinpulse::plugins::steam_market::kConfigKeys)
