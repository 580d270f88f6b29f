// Entry point of source_market_csgo.so; the logic lives in source_market_csgo_core.

#include "skinpulse/sdk/plugin.hpp"

#include "MarketCsgoSource.hpp"

SKINPULSE_DECLARE_PLUGIN(
    MarketSource, skinpulse::plugins::market_csgo::MarketCsgoSource, "market_csgo", "1.0.0",
    "market.csgo.com prices/USD.json: lowest listing and best buy order per item (USD)",
    skinpulse::plugins::market_csgo::kConfigKeys)
