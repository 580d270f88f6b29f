// Entry point of source_json_http.so; the logic lives in source_json_http_core.

#include "skinpulse/sdk/plugin.hpp"

#include "JsonHttpSource.hpp"

namespace {

// README.md in this folder documents every key with an example per shipped feed.
const skinpulse_config_key kKeys[] = {
    {"url", "http(s) address of the JSON feed, query included", 1},
    {"items_path",
     "JSON pointer to the items: an array of objects or an object keyed by market_hash_name "
     "(default: the whole document)",
     0},
    {"name_field",
     "member or JSON pointer of the item's market_hash_name (default market_hash_name)", 0},
    {"price_field",
     "member or JSON pointer of the price (default price; empty: the item value itself)", 0},
    {"price_unit", "cents (default), major or milli (thousandths of a major unit)", 0},
    {"volume_field", "member or JSON pointer of the traded volume (default volume)", 0},
    {"listings_field", "member or JSON pointer of the number of listings (default: none)", 0},
    {"time_field",
     "member or JSON pointer of the time (ISO 8601 or Unix seconds; '#/x' for one top-level "
     "time; default time)",
     0},
    {"image_field",
     "member or JSON pointer of an https picture of the item, used when the catalogue has none "
     "(default: none)",
     0},
    {"variant_field",
     "member or JSON pointer of the row's variant: a name (\"Ruby\", \"Phase 2\") or a paint "
     "index (default: none)",
     0},
    {"variant_prices_field",
     "member or JSON pointer of an object of per-variant prices keyed by variant name or paint "
     "index, e.g. /starting_at/doppler (default: none)",
     0},
    {"currency", "ISO 4217 code of the prices (default USD)", 0},
    {"max_bytes", "largest accepted response body in bytes (default 67108864)", 0},
    {"headers", "extra request headers, 'Name: value; Name2: value2' (values are never logged)", 0},
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, skinpulse::plugins::json_http::JsonHttpSource, "json_http",
                         "1.3.0", "prices from any keyless JSON feed, mapped by configuration",
                         kKeys)
