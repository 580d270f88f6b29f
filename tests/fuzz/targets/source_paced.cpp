// The two paced sources' answers (see source_response.hpp): the first byte picks the
// parse path, the rest is every upstream body.
//   '0' dmarket aggregated-prices, price_unit = cents     '1' the same, price_unit = major
//   '2' dmarket with a key: aggregated prices, then the signed last-sales body
//   '3' steam_market mode = search (search/render pages)
// What must hold besides "no crash": a success's quotes have names and positive cent
// prices, counts are not negative, pictures are https on Steam's CDN.
#include "DmarketSource.hpp"
#include "SteamMarketSource.hpp"
#include "mocks/MockHost.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

template <typename Source>
void run(skinpulse::test::MockHost& host) {
  Source source(host);
  for (int poll = 0; poll < 2; ++poll) {  // the second poll reads the kept cursor
    const auto result = source.fetchQuotes();
    if (!result.status.isOk()) continue;
    for (const auto& quote : result.quotes) {
      if (quote.market_hash_name.empty()) __builtin_trap();
      if (quote.volume < 0 || (quote.listings && *quote.listings < 0)) __builtin_trap();
      if (quote.price.form == skinpulse::sdk::QuotedPrice::Form::kCents && quote.price.cents <= 0) {
        __builtin_trap();
      }
      if (!quote.image_url.empty() &&
          quote.image_url.rfind("https://community.akamai.steamstatic.com/", 0) != 0) {
        __builtin_trap();
      }
    }
    host.now_millis += 3600 * 1000;  // past any hold-off
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const char path = static_cast<char>(data[0]);
  skinpulse::test::MockHost host;
  host.catalog_items.add("AK-47 | Redline (Field-Tested)");
  host.catalog_items.add("Dreams & Nightmares Case");
  host.http_client.on("", skinpulse::test::MockHttp::ok(
                              std::string(reinterpret_cast<const char*>(data) + 1, size - 1)));
  switch (path) {
    case '0':
    case '1':
    case '2':
      host.settings = {
          {"url", "http://dmarket.test"}, {"batch_size", "1"}, {"requests_per_poll", "2"}};
      if (path == '1') host.settings["price_unit"] = "major";
      if (path == '2') {
        host.settings["secret_key"] =
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
        host.settings["sales_per_poll"] = "1";
      }
      run<skinpulse::plugins::dmarket::DmarketSource>(host);
      break;
    case '3':
      host.settings = {
          {"url", "http://steam.test"}, {"mode", "search"}, {"requests_per_minute", "2"}};
      run<skinpulse::plugins::steam_market::SteamMarketSource>(host);
      break;
    default:
      break;
  }
  return 0;
}
