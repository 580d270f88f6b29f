// Entry point of rates_ecb.so; the logic lives in rates_ecb_core.

#include "skinpulse/sdk/plugin.hpp"

#include "EcbRates.hpp"

namespace {

// README.md in this folder documents the keys.
const skinpulse_config_key kKeys[] = {
    {"url",
     "address of the daily reference-rates XML (default "
     "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml)",
     0},
    {"max_bytes", "largest accepted document in bytes (default 1048576)", 0},
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(RateSource, skinpulse::plugins::ecb::EcbRates, "ecb", "1.0.0",
                         "European Central Bank daily reference rates, based on USD", kKeys)
