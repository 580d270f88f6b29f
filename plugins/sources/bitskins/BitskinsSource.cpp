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

}  // namespace skinpulse::plugins::bitskins
