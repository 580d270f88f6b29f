// The list plugins' response parsing (see source_response.hpp) on the shared simdjson reader
// (plugins/sources/common/ListFeed.hpp). The first byte picks the plugin, the rest is the
// body: seeds are "<digit><document>" (corpus/source_lists/).
//   0 csfloat (price list)   1 market_csgo (asks, then bids from the same body)
//   2 waxpeer                3 bitskins
//   4 csdeals                5 market_csgo's bid list alone, reduced to the best bid per name
#include "BitskinsSource.hpp"
#include "CsdealsSource.hpp"
#include "CsfloatSource.hpp"
#include "MarketCsgoSource.hpp"
#include "WaxpeerSource.hpp"
#include "source_response.hpp"

#include <string>
#include <string_view>

namespace {

namespace p = skinpulse::plugins;

int bestBids(const std::string& body) {
  p::support::RowCounts counts;
  auto batch = p::support::parseList(body, p::market_csgo::bidMapping(), 16, counts);
  if (!batch.status.isOk()) return 0;
  if (counts.rows < batch.quotes.size()) __builtin_trap();
  const auto best = p::market_csgo::bestBids(std::move(batch.quotes));
  for (const auto& bid : best) {
    if (bid.market_hash_name.empty() || bid.kind != skinpulse::sdk::PriceKind::kBid) {
      __builtin_trap();
    }
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::map<std::string, std::string> url = {{"url", "http://market.test/"}};
  const std::uint8_t* body = data + 1;
  const std::size_t length = size - 1;
  using skinpulse::fuzz::fetchWithBody;
  switch (data[0] % 6) {
    case 0:
      return fetchWithBody<p::csfloat::CsfloatSource>(body, length, url);
    case 1:
      return fetchWithBody<p::market_csgo::MarketCsgoSource>(body, length, url);
    case 2:
      return fetchWithBody<p::waxpeer::WaxpeerSource>(body, length, url);
    case 3:
      return fetchWithBody<p::bitskins::BitskinsSource>(body, length, url);
    case 4:
      return fetchWithBody<p::csdeals::CsdealsSource>(body, length, url);
    default:
      return bestBids(std::string(reinterpret_cast<const char*>(body), length));
  }
}
