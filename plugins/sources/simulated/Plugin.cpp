// Entry point of source_simulated.so; the logic lives in source_simulated_core.

#include "skinpulse/sdk/plugin.hpp"

#include "SimulatedSource.hpp"

namespace {

const skinpulse_config_key kKeys[] = {
    {"seed_file", "path of the seed prices (share/simulated/seed.tsv)", 1},
    {"fraction",
     "share of the seeded items observed per poll, in (0, 1] (default 0.02); with coverage: "
     "share of the listed items whose price moves per poll",
     0},
    {"coverage",
     "share of the seeded items this market lists, in (0, 1], all reported every poll "
     "(default: unset, a `fraction` sample per poll)",
     0},
    {"price_offset_percent", "added to every quoted price, in [-90, 900] (default 0)", 0},
    {"dispersion_percent",
     "standard deviation in percent of a per-item offset of this market, in [0, 50] (default 0)",
     0},
    {"outlier_probability", "chance per row of a x5 or /5 price, in [0, 1] (default 0)", 0},
    {"lag_seconds", "rows are stamped this many seconds before the poll (default 0)", 0},
    {"outage_after_polls",
     "after this many answered polls every poll fails as unavailable (default: never)", 0},
    {"variants", "true: Doppler items are quoted per phase, rows naming it (default false)", 0},
    {"jump_probability", "chance per observation of a 5-25 % jump, in [0, 1] (default 0.002)", 0},
    {"seed", "random seed (unsigned integer) for a reproducible run; default: random", 0},
    {"url", "accepted for uniformity with other sources and ignored (no network)", 0},
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::simulated::SimulatedSource, "simulated",
                         "1.1.0",
                         "random-walk prices from a seed file, no network (development only)",
                         kKeys)
