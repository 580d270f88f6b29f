// Entry point of source_csdeals.so; the logic lives in source_csdeals_core.

#include "skinpulse/sdk/plugin.hpp"

#include "CsdealsSource.hpp"

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::csdeals::CsdealsSource, "csdeals",
                         "1.0.0", "CS.Deals GetLowestPrices: lowest listing per item (USD)",
                         skinpulse::plugins::support::kListConfigKeys)
