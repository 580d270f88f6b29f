// Entry point of source_json_http.so; the logic lives in source_json_http_core.

#include "skinpulse/sdk/plugin.hpp"

#include "JsonHttpSource.hpp"

namespace {

const skinpulse_config_key kKeys[] = {
    {"url", "http(s) address answering a JSON array of {market_hash_name, price, volume, time}", 1},
    {"price_unit", "cents (default) or major: the unit of numeric prices", 0},
    {"max_bytes", "largest accepted response body in bytes (default 16777216)", 0},
    {"headers", "extra request headers, 'Name: value; Name2: value2' (values are never logged)", 0},
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::json_http::JsonHttpSource, "json_http",
                         "1.0.0", "prices from any HTTP endpoint serving a JSON array of rows",
                         kKeys)
