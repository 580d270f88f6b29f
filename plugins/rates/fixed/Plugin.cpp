// Entry point of rates_fixed.so; the logic lives in rates_fixed_core.

#include "skinpulse/sdk/plugin.hpp"

#include "FixedRates.hpp"

namespace {

// README.md in this folder documents the key.
const skinpulse_config_key kKeys[] = {
    {"rates", "units per 1 USD, comma-separated CODE:DECIMAL pairs, e.g. EUR:0.95, JPY:151.2", 1},
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(RateSource, skinpulse::plugins::fixed::FixedRates, "fixed", "1.0.0",
                         "exchange rates from configuration (units per USD)", kKeys)
