#include "CsdealsSource.hpp"

namespace skinpulse::plugins::csdeals {

support::Mapping mapping() {
  // Dollars as a string ("1.23"); one feed-wide update time; no listing count.
  return support::listMapping({.items = "/response/items",
                               .name = "marketname",
                               .price = "lowest_price",
                               .unit = support::PriceUnit::kMajor,
                               .time = "#/response/time_updated",
                               .success = true});
}

}  // namespace skinpulse::plugins::csdeals
