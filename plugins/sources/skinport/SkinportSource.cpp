#include "SkinportSource.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

namespace skinpulse::plugins::skinport {
namespace {

// Only USD: the daemon stores USD cents and this plugin asks Skinport for USD prices.
const sdk::Host& checkCurrency(const sdk::Host& host) {
  std::string currency = host.config().getString("currency", "USD");
  std::transform(currency.begin(), currency.end(), currency.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (currency != "USD") {
    throw std::invalid_argument(
        "currency: only USD is supported (the daemon stores USD cents and this plugin does not "
        "convert), got \"" +
        host.config().getString("currency", "") + "\"");
  }
  return host;
}

constexpr support::ListSpec kSpec{"skinport", "https://api.skinport.com",
                                  "/v1/items?app_id=730&currency=USD", 32u * 1024u * 1024u, 16};

}  // namespace

support::Mapping mapping() {
  support::Mapping m;
  m.shape = support::ItemsShape::kArray;
  m.price = support::FieldPath::member("min_price");
  // Nobody lists the item: Skinport's own estimate, a reference price.
  m.fallback_price = support::FieldPath::member("suggested_price");
  m.fallback_kind = sdk::PriceKind::kReference;
  m.unit = support::PriceUnit::kMajor;
  m.listings = support::FieldPath::member("quantity");  // listings, never traded volume
  m.time = support::FieldPath::member("updated_at");
  // A row priced in another currency would be stored as USD cents: never passed on.
  m.row_currency = support::FieldPath::member("currency");
  m.lenient = true;  // an unreadable quantity or time loses that value, not the row
  // The Doppler and Gamma Doppler phases come as rows of their own, named in `version`
  // ("Phase 2", "Ruby", …); other versions (pattern tiers) name no catalogue variant and
  // are priced as the name itself (docs/upstreams.md, "Variants").
  m.variant = support::FieldPath::member("version");
  return m;
}

SkinportSource::SkinportSource(sdk::Host& host)
    : ListSource((checkCurrency(host), host), kSpec, mapping()) {
  // Skinport answers 406 without Brotli (docs/upstreams.md §b.3); the host decodes it.
  request_.headers = {{"Accept-Encoding", "br"}, {"Accept", "application/json"}};
}

}  // namespace skinpulse::plugins::skinport
