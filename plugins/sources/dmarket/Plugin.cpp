// Entry point of source_dmarket.so; the logic lives in source_dmarket_core.

#include "skinpulse/sdk/plugin.hpp"

#include "DmarketSource.hpp"

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::dmarket::DmarketSource, "dmarket",
                         "1.0.0",
                         "DMarket aggregated prices: a bid and an ask per item (USD), in "
                         "batches of 100 titles; signed last sales with a key",
                         skinpulse::plugins::dmarket::kConfigKeys)
