// Entry point of source_waxpeer.so; the logic lives in source_waxpeer_core.

#include "skinpulse/sdk/plugin.hpp"

#include "WaxpeerSource.hpp"

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::waxpeer::WaxpeerSource, "waxpeer",
                         "1.0.0", "Waxpeer /v1/prices: lowest listing per item (USD)",
                         skinpulse::plugins::support::kListConfigKeys)
