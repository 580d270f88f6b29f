// The json_http plugin's response parsing (see source_response.hpp). The first byte picks
// one of the mappings of the shipped and tested feeds (plugins/sources/json_http/README.md),
// the rest is the body: seeds are "<digit><document>" (corpus/source_json_http/).
#include "JsonHttpSource.hpp"
#include "source_response.hpp"

#include <map>
#include <string>

namespace {

using Keys = std::map<std::string, std::string>;

const Keys kMappings[] = {
    // 0: the defaults, an array of {market_hash_name, price (cents), volume, time}
    {},
    // 1: White.market
    {{"price_unit", "major"}, {"volume_field", ""}, {"time_field", ""}},
    // 2: Buff163 via csgotrader, ask (3: bid), with the per-phase doppler prices
    {{"price_field", "/starting_at/price"},
     {"price_unit", "major"},
     {"variant_prices_field", "/starting_at/doppler"}},
    {{"price_field", "/highest_order/price"},
     {"price_unit", "major"},
     {"variant_prices_field", "/highest_order/doppler"}},
    // 4: YouPin via csgotrader: {name: price}
    {{"price_field", ""}, {"price_unit", "major"}},
    // 5: market.csgo.com: listings as text, one top-level time
    {{"items_path", "/items"},
     {"price_unit", "major"},
     {"volume_field", ""},
     {"listings_field", "volume"},
     {"time_field", "#/time"}},
    // 6: Waxpeer: thousandths, pointer fields
    {{"items_path", "/items"},
     {"name_field", "/name"},
     {"price_field", "min"},
     {"price_unit", "milli"},
     {"volume_field", ""},
     {"listings_field", "count"},
     {"image_field", "img"}},
    // 7: a row's variant by name or paint index (Skinport's `version`, a listing's paint)
    {{"variant_field", "version"}, {"price_unit", "major"}},
};
constexpr std::size_t kMappingCount = sizeof(kMappings) / sizeof(kMappings[0]);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Keys keys = kMappings[data[0] % kMappingCount];
  keys["url"] = "http://feed.test/prices.json";
  return skinpulse::fuzz::fetchWithBody<skinpulse::plugins::json_http::JsonHttpSource>(
      data + 1, size - 1, keys);
}
