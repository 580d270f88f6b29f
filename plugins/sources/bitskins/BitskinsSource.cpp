#include "BitskinsSource.hpp"

namespace skinpulse::plugins::bitskins {

support::Mapping mapping() {
  // Thousandths of a dollar like Waxpeer: price_min 12340 = $12.34.
  return support::listMapping({.items = "/list",
                               .name = "name",
                               .price = "price_min",
                               .unit = support::PriceUnit::kMilli,
                               .listings = "quantity"});
}

BitskinsSource::BitskinsSource(sdk::Host& host)
    : ListSource(host, {"bitskins", "https://api.bitskins.com", "/market/insell/730"}, mapping()) {}

}  // namespace skinpulse::plugins::bitskins
